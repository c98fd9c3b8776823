import { chmod, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWooDouble, type WooDouble } from '../../../src/sources/stores/woocommerce/double.js';
import { sampleCategories, sampleWooStore } from '../../../src/sources/stores/woocommerce/sample-store.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { dumpPrefix, withRedis } from '../support/redis-prefix.js';

/**
 * Another seller's key from the keys file, with `/`, `+` and `=`: its URL-encoded and JSON-escaped
 * forms differ from it, so each is a form of its own to cut.
 */
const OTHER_KEY = 'sk_live_OTHERSELLER/b+K3y=';
const WOO_KEY = 'ck_STOREKEY_0123456789';
const WOO_SECRET = 'cs_STORESECRET_9876543210';

/** Every form an echo of `secret` may take in an answer, as a test looks for it. */
function formsOf(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    secret.replaceAll('/', '\\/'),
  ];
}

/** `\u0073\u006b…`: each character as a JSON escape, inside a JSON string literal. */
function escaped(text: string): string {
  return [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

/** An answer body quoting `secret` as written, URL-encoded, with `\/` and in `\u` escapes. */
function echoingBody(secret: string): string {
  const slashed = secret.replaceAll('/', '\\/');
  return (
    `{"message":"refused: header x-seller-key ${secret} (query key=${encodeURIComponent(secret)})",` +
    `"errors":["echo ${slashed}","escaped ${escaped(secret)}"]}`
  );
}

/**
 * A loopback stand-in for the Seller API: the sandbox's answers, but every product write answered
 * 422 with `body` (a marketplace or a proxy that quotes a request header or a value it holds).
 */
async function refusingWrites(target: string, body: string): Promise<{ url: string; server: Server }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    if (req.method === 'POST' || req.method === 'PUT') {
      req.resume();
      res.writeHead(422, { 'content-type': 'application/json' }).end(body);
      return;
    }
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${upstream.pathname}`, server };
}

describe('a secret the process loaded, quoted back in a row error', () => {
  const pipeline = usePipeline();
  let server: Server | undefined;
  let store: WooDouble | undefined;
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
    await store?.close();
    store = undefined;
  });

  /** Runs `source` against the stand-in; the report, `status --json`, Redis and the output, as text. */
  async function runAgainst(source: string, body: string, args: string[], env: NodeJS.ProcessEnv) {
    const api = await refusingWrites(pipeline.sandbox.baseUrl, body);
    server = api.server;
    const report = join(pipeline.dir, 'report.csv');
    const run = await pipeline.cli(['run', source, '--report', report, ...args], {
      SELLER_API_BASE_URL: api.url,
      LOG_LEVEL: 'debug',
      ...env,
    });
    const status = await pipeline.cli(['status', runIdOf(run.stdout), '--json']);
    return {
      run,
      kept: {
        report: await pipeline.readText('report.csv'),
        status: status.stdout,
        redis: await withRedis((redis) => dumpPrefix(redis, pipeline.prefix)),
        output: run.stdout + run.stderr + status.stdout + status.stderr,
      },
    };
  }

  function expectNoForm(texts: Record<string, string>, secrets: string[]): void {
    for (const [where, text] of Object.entries(texts))
      for (const secret of secrets)
        for (const form of formsOf(secret))
          expect(text.includes(form), `${where} holds ${JSON.stringify(form)}`).toBe(false);
  }

  it("another seller's key from the keys file, in a 422's body: in no report, status, Redis or output", async () => {
    const keys = join(pipeline.dir, 'keys.env');
    await writeFile(keys, `SELLER_API_KEY_SHOP_B=${OTHER_KEY}\n`);
    await chmod(keys, 0o600);
    const source = await pipeline.csv('catalog.csv', catalogRows(3));

    const seen = await runAgainst(source, echoingBody(OTHER_KEY), ['--keys-file', keys], {});

    expect(seen.run.code, seen.run.stderr).toBe(1);
    // The rows failed with the API's words, the key cut from them.
    expect(seen.kept.report).toContain('refused: header x-seller-key [redacted]');
    expect(JSON.parse(seen.kept.status)).toMatchObject({ counts: { failed: 3 } });
    expect(seen.kept.redis).toContain('[redacted]');
    expectNoForm(seen.kept, [OTHER_KEY]);
  });

  it("a store's credentials, quoted back by the Seller API: in no report, status, Redis or output", async () => {
    store = await startWooDouble(sampleWooStore(), sampleCategories(), {
      consumerKey: WOO_KEY,
      consumerSecret: WOO_SECRET,
    });
    const basic = Buffer.from(`${WOO_KEY}:${WOO_SECRET}`).toString('base64');
    const body = echoingBody(WOO_SECRET).replace('"message":"', `"message":"${WOO_KEY} Basic ${basic} `);

    const seen = await runAgainst(store.source, body, [], {
      WOO_CONSUMER_KEY: WOO_KEY,
      WOO_CONSUMER_SECRET: WOO_SECRET,
    });

    expect(seen.run.code, seen.run.stderr).toBe(1);
    expect(seen.kept.report).toContain('[redacted]');
    expectNoForm(seen.kept, [WOO_KEY, WOO_SECRET, basic]);
  });
});
