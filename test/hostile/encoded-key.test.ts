import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../integration/support/cli.js';
import {
  dumpPrefix,
  removePrefix,
  TEST_REDIS_URL,
  uniquePrefix,
  withRedis,
} from '../integration/support/redis-prefix.js';
import { loopbackServer, tempFolder } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * The Seller API key was redacted as sent and in `\u` escapes only, while a store's credentials were
 * redacted in every form an echo takes (secret-forms.ts): an API quoting the key URL-encoded (a query
 * string it was given) or with PHP's `\/` slashes got it into the run's line, the report and Redis.
 */
const KEY = 'sk_live_Ab+cD/eF=gH+iJ/kL==';
const URL_ENCODED = encodeURIComponent(KEY);
const SLASHES = KEY.replaceAll('/', '\\/');

describe('an API that echoes the key URL-encoded or with escaped slashes', () => {
  let prefix = '';
  const folder = tempFolder();
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(async () => {
    await removePrefix(prefix);
  });
  afterAll(() => folder.remove());

  const envFor = (base: string) => ({
    ...process.env,
    SELLER_API_BASE_URL: `${base}/api/v1`,
    SELLER_API_KEY: KEY,
    REDIS_URL: TEST_REDIS_URL,
    CATALOG_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'info',
    CATALOG_SYNC_RETRY_BASE_MS: '1',
  });

  it('the key, in either form, reaches neither the report, nor Redis, nor what the run prints', async () => {
    expect(URL_ENCODED).not.toContain(KEY);
    const api = await loopbackServer({
      '/api/v1/ping': (_req, res) => res.end('{}'),
      '/api/v1/products': (req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET') {
          // A listed product whose name holds the key: it would go to Redis with the index.
          res.end(`[{"id":1,"sku":"A-1","name":"token ${URL_ENCODED}","price":1}]`);
        } else if (req.method === 'PUT') {
          res.writeHead(400);
          res.end(`{"message":"api_key=${URL_ENCODED} may not change A-1"}`);
        } else {
          // Not JSON: no parse undoes the `\/` (a PHP error page quoting what it encoded).
          res.writeHead(422, { 'content-type': 'text/plain' });
          res.end(`bad token ${SLASHES} for B-2`);
        }
      },
    });
    try {
      const source = folder.write('catalog.csv', 'sku,name,price\nA-1,Alpha,2\nB-2,Beta,3\n');
      const report = join(folder.dir, 'report.csv');
      const run = await runCli(['run', source, '--report', report], envFor(api.base));

      expect(run.code).toBe(1);
      const written = readFileSync(report, 'utf8');
      expect(written).toContain('api_key=[redacted] may not change A-1');
      expect(written).toContain('bad token [redacted] for B-2');
      for (const text of [
        written,
        run.stdout,
        run.stderr,
        await withRedis((redis) => dumpPrefix(redis, prefix)),
      ]) {
        for (const form of [KEY, URL_ENCODED, SLASHES, 'cD/eF', 'cD%2FeF']) expect(text).not.toContain(form);
      }
    } finally {
      await api.close();
    }
  });

  it("an error page quoting the key in both forms: ping's error line shows [redacted], never the key", async () => {
    const api = await loopbackServer({
      '/api/v1/ping': (_req, res) => {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end(`<html><body><p>Bearer ${SLASHES} refused (token=${URL_ENCODED})</p></body></html>`);
      },
    });
    try {
      const run = await runCli(['ping'], envFor(api.base));
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(
        'GET /ping: 400 Bad Request: Bearer [redacted] refused (token=[redacted])',
      );
      for (const text of [run.stdout, run.stderr, await withRedis((redis) => dumpPrefix(redis, prefix))]) {
        for (const form of [KEY, URL_ENCODED, SLASHES, 'cD/eF', 'cD%2FeF']) expect(text).not.toContain(form);
      }
    } finally {
      await api.close();
    }
  });
});
