import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AnswerCaps } from '../../src/seller-api/answer-caps.js';
import { CliProcesses } from '../integration/support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { endlessList, loopbackNetwork, loopbackServer, type Route, runCliWithNetwork } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * Issue 32, item 10: the API's answers were capped very high (100,000 pages of up to 64 MiB, no cap
 * on records or fields): an endless `next` chain wrote 342 MB of scratch in 14 s, left behind after
 * SIGTERM. Now pages, bytes (per answer and in all), records and distinct fields of a list read are
 * capped (answer-caps.ts; scaled down here through the CLI's `answerCaps` seam): one line, exit 2,
 * and no scratch left, on SIGTERM too.
 */
const KEY = 'sk_test_caps';

describe("the API's answers, bounded", () => {
  const scratchRoot = mkdtempSync(join(tmpdir(), 'catalog-sync-caps-'));
  const previousTmp = process.env.TMPDIR;
  const processes = new CliProcesses();
  beforeAll(() => {
    // The export's scratch folder is made under TMPDIR: this test's own, so it can see what is left.
    process.env.TMPDIR = scratchRoot;
  });
  afterEach(async () => {
    await processes.stopAll();
  });
  afterAll(() => {
    if (previousTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmp;
    rmSync(scratchRoot, { recursive: true, force: true });
  });

  /** `orders export --out` against one loopback route, with the caps given. */
  async function exportOrders(route: Route, caps: Partial<AnswerCaps>) {
    const server = await loopbackServer({ '/api/v1/orders': route });
    try {
      return await runCliWithNetwork(
        ['orders', 'export', '--out', join(scratchRoot, 'orders.csv')],
        {
          SELLER_API_BASE_URL: `${server.base}/api/v1`,
          SELLER_API_KEY: KEY,
          CATALOG_SYNC_RETRY_BASE_MS: '1',
        },
        loopbackNetwork({}),
        caps,
      );
    } finally {
      await server.close();
    }
  }

  const scratchLeft = () =>
    readdirSync(scratchRoot).filter((name) => name.startsWith('catalog-sync-export-'));

  it.each<
    [
      string,
      Partial<AnswerCaps>,
      { perPage?: number; fieldsOf?: (id: number) => Record<string, unknown> },
      RegExp,
    ]
  >([
    ['pages', { pages: 40 }, {}, /the list passed 40 pages, more than any real seller has; stopped reading/],
    ['records', { records: 100 }, { perPage: 30 }, /the list passed 100 records/],
    [
      'bytes in all',
      { totalBytes: 64 * 1024 },
      { perPage: 20, fieldsOf: () => ({ name: 'x'.repeat(500) }) },
      /the list passed 64 KiB of answers/,
    ],
    [
      'distinct fields',
      { columns: 50 },
      { perPage: 5, fieldsOf: (id) => ({ [`field_${id}`]: 1 }) },
      /the list passed 50 distinct fields/,
    ],
  ])(
    'an endless `next` chain past the cap of %s: one line, exit 2, no scratch left',
    async (_, caps, page, message) => {
      let base = '';
      const route = endlessList(() => base, page);
      const server = await loopbackServer({ '/api/v1/products': route });
      base = server.base;
      try {
        const result = await runCliWithNetwork(
          ['products', 'export', '--out', join(scratchRoot, 'products.csv')],
          { SELLER_API_BASE_URL: `${base}/api/v1`, SELLER_API_KEY: KEY, CATALOG_SYNC_RETRY_BASE_MS: '1' },
          loopbackNetwork({}),
          caps,
        );
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(message);
        expect(result.stderr.trim().split('\n')).toHaveLength(1);
        expect(server.requests.length).toBeLessThan(200);
        expect(scratchLeft()).toEqual([]);
      } finally {
        await server.close();
      }
    },
  );

  it('one page over the cap of one answer (orders export): one line, exit 2, not read', async () => {
    const result = await exportOrders(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify([{ id: 1, note: 'y'.repeat(1024 * 1024) }]));
      },
      { pageBytes: 256 * 1024 },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/the answer is over 256 KiB, more than any real page; not read/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(scratchLeft()).toEqual([]);
  });

  it('`run`: its list read past a cap ends with the line saying so, exit 2, and no row is written', async () => {
    let base = '';
    const server = await loopbackServer({
      '/api/v1/ping': (_req, res) => res.end('{}'),
      '/api/v1/products': endlessList(() => base),
    });
    base = server.base;
    const prefix = uniquePrefix();
    try {
      const source = join(scratchRoot, 'catalog.csv');
      writeFileSync(source, 'sku,name,price\nA-1,Alpha,1\nB-2,Beta,2\n');
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
        { pages: 30 },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^catalog-sync: the seller's products could not be read: .*the list passed 30 pages, more than any real seller has; stopped reading$/m,
      );
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(server.requests.filter((req) => req.method !== 'GET')).toEqual([]);
      expect(server.requests.length).toBeLessThan(40);
    } finally {
      await server.close();
      await removePrefix(prefix);
    }
  });

  it('SIGTERM mid-export: exit 143, one line, and the scratch folder is gone', async () => {
    let base = '';
    let pageTwenty: () => void = () => {};
    const twentyPages = new Promise<void>((resolve) => {
      pageTwenty = resolve;
    });
    const server = await loopbackServer({
      '/api/v1/products': endlessList(() => base, {
        perPage: 50,
        held: async (page) => {
          if (page === 20) pageTwenty();
        },
      }),
    });
    base = server.base;
    try {
      const child = processes.spawn(['products', 'export', '--out', join(scratchRoot, 'endless.csv')], {
        PATH: process.env.PATH,
        TMPDIR: scratchRoot,
        SELLER_API_BASE_URL: `${base}/api/v1`,
        SELLER_API_KEY: KEY,
      });
      await twentyPages;
      expect(scratchLeft()).toHaveLength(1);

      child.process.kill('SIGTERM');
      const { code } = await child.exited;

      expect(code).toBe(143);
      expect(child.stderr()).toMatch(/^catalog-sync: products export interrupted \(SIGTERM\)/);
      expect(scratchLeft()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
