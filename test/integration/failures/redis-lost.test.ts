import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { freePort, OwnRedis } from '../support/own-redis.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { createsBySku, expectOneLine } from './support/redis-watch.js';

async function until(what: string, check: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const LOST_LINE =
  /^catalog-sync: Redis lost this run's state, probably a restart without persistence: run it again$/;

/** The same products with other prices: a run of them sends only PUTs. */
function repriced(rows: CatalogRow[]): CatalogRow[] {
  return rows.map((row) => ({ ...row, price: (Number(row.price) + 1.25).toFixed(2) }));
}

/**
 * Issue 10, item 9: Redis loses its data in the middle of a run (flushed, or restarted without
 * persistence). Each test has a redis-server of its own, without AOF.
 */
describe("when Redis loses a run's data in the middle of it", () => {
  const pipeline = usePipeline({ latencyMs: 5 });
  let redis: OwnRedis;
  let admin: Redis;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-lost-redis-'));
    redis = new OwnRedis(await freePort(), dir, { persistence: false });
    await redis.start();
    admin = redis.client();
    admin.on('error', () => {});
  });
  afterEach(async () => {
    admin.disconnect();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const env = () => ({ REDIS_URL: redis.url, LOG_LEVEL: 'warn', CATALOG_SYNC_LOCK_MS: '2000' });

  it('FLUSHALL: one line, exit 2, no create for a product that exists; a re-run is exact', {
    timeout: 120_000,
  }, async () => {
    const rows = catalogRows(300);
    const first = await pipeline.cli(['run', await pipeline.csv('v1.csv', rows)], env());
    expect(first.code, first.stderr).toBe(0);
    const changed = repriced(rows);
    const source = await pipeline.csv('v2.csv', changed);

    const run = pipeline.spawn(['run', source, '--concurrency', '4'], env());
    await until('some updates', () => requestCounts(pipeline.sandbox.stats()).updates >= 60);
    await admin.flushall();
    const exited = await run.exited;

    expect(exited.code, run.stderr()).toBe(2);
    expectOneLine(run.stderr(), LOST_LINE);
    // With the id map and the run's index gone, a row not yet synced would look new: none was sent.
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(rows.length);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBeLessThan(rows.length);

    const again = pipeline.spawn(['run', source, '--concurrency', '4'], env());
    expect(await again.exited, again.stderr()).toEqual({ code: 0, signal: null });
    expectExactCatalog(pipeline.products(), changed);
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(rows.length);
  });

  it('a restart without persistence: one line, exit 2; a re-run creates each missing product once', {
    timeout: 120_000,
  }, async () => {
    const rows = catalogRows(300);
    const source = await pipeline.csv('catalog.csv', rows);

    const run = pipeline.spawn(['run', source, '--concurrency', '4'], env());
    await until('some creates', () => pipeline.sandbox.stats().writesApplied >= 60);
    admin.disconnect();
    await redis.stop();
    await redis.start();
    admin = redis.client();
    admin.on('error', () => {});
    const exited = await run.exited;

    expect(exited.code, run.stderr()).toBe(2);
    expectOneLine(run.stderr(), LOST_LINE);
    expect(pipeline.sandbox.stats().writesApplied).toBeLessThan(rows.length);

    const again = pipeline.spawn(['run', source, '--concurrency', '4'], env());
    expect(await again.exited, again.stderr()).toEqual({ code: 0, signal: null });
    expectExactCatalog(pipeline.products(), rows);
    const creates = createsBySku(pipeline.sandbox.requests());
    expect([...creates.values()].filter((count) => count > 1)).toEqual([]);
  });
});
