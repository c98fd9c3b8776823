import { randomBytes } from 'node:crypto';
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
 * Issue 32, item 7: the key was redacted in the raw body before it was parsed, so an API that echoed
 * it in JSON escapes (`"token \u0073\u006b…"`) got it past the redaction, into the report and Redis.
 * Now every string of a parsed body is redacted too: in an error's reason and in the records read.
 */
const KEY = `sk_live_${randomBytes(12).toString('hex')}`;
/** The key as JSON escapes only: no byte of the raw body spells it. */
const ESCAPED = [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

describe('an API that echoes the key in JSON escapes', () => {
  let prefix = '';
  const folder = tempFolder();
  beforeEach(() => {
    prefix = uniquePrefix();
  });
  afterEach(async () => {
    await removePrefix(prefix);
  });
  afterAll(() => folder.remove());

  it('the key reaches neither the report, nor Redis, nor what the run prints', async () => {
    const api = await loopbackServer({
      '/api/v1/ping': (_req, res) => res.end('{}'),
      '/api/v1/products': (req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET') {
          // A listed product whose name holds the key: it would go to Redis with the index.
          res.end(`[{"id":1,"sku":"A-1","name":"token ${ESCAPED}","price":1}]`);
        } else if (req.method === 'PUT') {
          res.writeHead(400);
          res.end(`{"message":"token ${ESCAPED} is not allowed to change A-1"}`);
        } else {
          res.writeHead(422);
          res.end(`{"errors":[{"field":"name","message":"bad token ${ESCAPED}"}]}`);
        }
      },
    });
    try {
      const source = folder.write('catalog.csv', 'sku,name,price\nA-1,Alpha,2\nB-2,Beta,3\n');
      const report = join(folder.dir, 'report.csv');
      const env = {
        ...process.env,
        SELLER_API_BASE_URL: `${api.base}/api/v1`,
        SELLER_API_KEY: KEY,
        REDIS_URL: TEST_REDIS_URL,
        CATALOG_SYNC_PREFIX: prefix,
        LOG_LEVEL: 'info',
        CATALOG_SYNC_RETRY_BASE_MS: '1',
      };

      const run = await runCli(['run', source, '--report', report], env);

      expect(run.code).toBe(1);
      const written = readFileSync(report, 'utf8');
      expect(written).toContain('[redacted] is not allowed to change A-1');
      expect(written).toContain('bad token [redacted]');
      for (const text of [
        written,
        run.stdout,
        run.stderr,
        await withRedis((redis) => dumpPrefix(redis, prefix)),
      ]) {
        expect(text).not.toContain(KEY);
        expect(text).not.toContain(ESCAPED);
      }
    } finally {
      await api.close();
    }
  });
});
