import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { AnswerCapError } from '../../src/seller-api/index.js';
import { forEachReadingAhead } from '../../src/sync/read-ahead.js';
import { CliProcesses } from '../integration/support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { gate } from '../support/gate.js';
import { endlessList, loopbackNetwork, loopbackServer, runCliWithNetwork, tempFolder } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * Issue 32, attacker review: `run` against a `GET /products` of 5,000,000 records (100 a page) died
 * with an uncaught AnswerCapError (exit 1) when the record cap was passed, leaving the run `running`
 * and its 330 MB products hash without a TTL. The next page is fetched while the one before is
 * written (read-ahead.ts): a page past the cap failed while that write was still under way (Redis
 * slower on a hash of millions), and its rejection had no handler yet. Now every cap ends `run` with
 * its one line and exit 2, and what the list read writes has the run's TTL from its first page.
 */
const KEY = 'sk_test_run_caps';

/** Every key under the prefix that lives for ever, of the run's (`run:…`) or its seller's marks. */
async function keysWithoutTtl(redis: Redis, prefix: string): Promise<string[]> {
  const keys = await redis.keys(`${prefix}:*`);
  const ttls = await Promise.all(keys.map((key) => redis.ttl(key)));
  return keys
    .filter((key, i) => ttls[i] === -1 && /:run:|:active:/.test(key))
    .map((key) => key.slice(prefix.length + 1));
}

describe("`run`'s list read past a cap of the API's answers", () => {
  const folder = tempFolder();
  const processes = new CliProcesses();
  const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: 1 });
  const prefixes: string[] = [];
  const newPrefix = () => {
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    return prefix;
  };
  afterEach(async () => {
    await processes.stopAll();
    await Promise.all(prefixes.splice(0).map((prefix) => removePrefix(prefix)));
  });
  afterAll(async () => {
    folder.remove();
    await redis.quit();
  });

  it("a page past the cap that fails while the page before is being written is the read's failure, not an uncaught one", async () => {
    const unhandled: unknown[] = [];
    const note = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', note);
    try {
      const writing = gate();
      const failed = gate();
      async function* pages(): AsyncGenerator<number> {
        yield 1;
        yield 2;
        // The page past the cap: asked for once page 2 came, it fails while page 1 is being written.
        failed.open();
        throw new AnswerCapError({ status: 200, method: 'GET', path: '/products', reason: 'past the cap' });
      }
      const read = forEachReadingAhead(pages(), async (page) => {
        if (page === 1) await writing.promise;
      });
      read.catch(() => undefined);
      await failed.promise;
      // Turns of the event loop: Node reports a rejection still without a handler after one.
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      writing.open();
      await expect(read).rejects.toBeInstanceOf(AnswerCapError);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', note);
    }
  });

  it.each([
    [
      'records',
      { records: 500 },
      /the list passed 500 records, more than any real seller has; stopped reading$/m,
    ],
    ['pages', { pages: 5 }, /the list passed 5 pages, more than any real seller has; stopped reading$/m],
  ])(
    'past the cap of %s (100 records a page): one line, exit 2, the run settled, nothing kept for ever',
    async (_, caps, line) => {
      let base = '';
      const server = await loopbackServer({
        '/api/v1/ping': (_req, res) => res.end('{}'),
        '/api/v1/products': endlessList(() => base, { perPage: 100 }),
      });
      base = server.base;
      const prefix = newPrefix();
      try {
        const source = folder.write('catalog.csv', 'sku,name,price\nA-1,Alpha,1\nB-2,Beta,2\n');
        const result = await runCliWithNetwork(
          ['run', source],
          {
            SELLER_API_BASE_URL: `${base}/api/v1`,
            SELLER_API_KEY: KEY,
            REDIS_URL: TEST_REDIS_URL,
            CATALOG_SYNC_PREFIX: prefix,
            LOG_LEVEL: 'silent',
            CATALOG_SYNC_RETRY_BASE_MS: '1',
          },
          loopbackNetwork({}),
          caps,
        );
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(line);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        const [runKey] = await redis
          .keys(`${prefix}:run:*`)
          .then((keys) => keys.filter((k) => /:run:[^:]+$/.test(k)));
        expect(await redis.hget(runKey ?? '', 'state')).toBe('done');
        expect(await keysWithoutTtl(redis, prefix)).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );

  it("SIGTERM mid-read: the run's products hash had the run's TTL from its first page, and nothing is left for ever", async () => {
    let base = '';
    const release = gate();
    let pageThreeAsked: () => void = () => {};
    const pageThree = new Promise<void>((resolve) => {
      pageThreeAsked = resolve;
    });
    const server = await loopbackServer({
      '/api/v1/ping': (_req, res) => res.end('{}'),
      '/api/v1/products': endlessList(() => base, {
        perPage: 100,
        held: async (page) => {
          if (page < 3) return;
          pageThreeAsked();
          await release.promise;
        },
      }),
    });
    base = server.base;
    const prefix = newPrefix();
    try {
      const source = folder.write('catalog.csv', 'sku,name,price\nA-1,Alpha,1\nB-2,Beta,2\n');
      const child = processes.spawn(['run', source], {
        PATH: process.env.PATH,
        SELLER_API_BASE_URL: `${base}/api/v1`,
        SELLER_API_KEY: KEY,
        REDIS_URL: TEST_REDIS_URL,
        CATALOG_SYNC_PREFIX: prefix,
        LOG_LEVEL: 'silent',
      });
      await pageThree;
      // Page 0 at least is written (page 3 is asked for once page 2 came): the hash exists, with a TTL.
      const [products] = await redis.keys(`${prefix}:run:*:products`);
      expect(products).toBeDefined();
      expect(await redis.hlen(products ?? '')).toBeGreaterThanOrEqual(100);
      expect(await redis.ttl(products ?? '')).toBeGreaterThan(0);

      child.process.kill('SIGTERM');
      release.open();
      await child.exited;
      expect(await keysWithoutTtl(redis, prefix)).toEqual([]);
    } finally {
      release.open();
      await server.close();
    }
  });
});
