import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { freePort, OwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { createsBySku, expectOneLine, usedMemory, watchFirstOom } from './support/redis-watch.js';

/**
 * Issue 18: a Redis with a small maxmemory and `noeviction`, filled by a real run. Each test starts a
 * redis-server of its own (no persistence, so its memory is what the run put there), never touching
 * the shared one's configuration.
 */
describe('a Redis with a maxmemory (noeviction) that a run fills', () => {
  const pipeline = usePipeline({ latencyMs: 2 });
  let redis: OwnRedis;
  let admin: Redis;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-full-redis-'));
    redis = new OwnRedis(await freePort(), dir, { persistence: false });
    await redis.start();
    admin = redis.client();
  });
  afterEach(async () => {
    await admin.quit();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  // Warnings would show (a chunk tried again, BullMQ's errors): the one line must be all there is.
  const env = () => ({ REDIS_URL: redis.url, LOG_LEVEL: 'warn', CATALOG_SYNC_LOCK_MS: '2000' });

  it('refuses a run that cannot fit before its first request, with the figures (run and import)', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(2000));
    await admin.config('SET', 'maxmemory', String((await usedMemory(admin)) + 300 * 1024));

    for (const command of ['run', 'import']) {
      const result = await pipeline.cli([command, source], env());

      expect(result.code, command).toBe(2);
      expectOneLine(
        result.stderr,
        /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ has about [\d.]+ KiB left \(used [\d.]+ [KM]iB of maxmemory [\d.]+ [KM]iB\); this run needs about [\d.]+ MiB for [\d,]+ rows \(estimated from the source's size: [\d,]+ bytes at \d+ a line; 1104 bytes a row kept, \d+ more while queued \(\d+ of them its source values\)\): raise maxmemory or free space, or pass --force to try anyway$/,
      );
      const rows = Number(/for ([\d,]+) rows/.exec(result.stderr)?.[1]?.replaceAll(',', ''));
      expect(rows).toBeGreaterThan(1800);
      expect(rows).toBeLessThan(2200);
    }
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('stops at the first refused write (one line, exit 2, no request after it, rows left queued); a re-run once there is room ends exact', {
    timeout: 120_000,
  }, async () => {
    const rows = catalogRows(1500);
    const source = await pipeline.csv('catalog.csv', rows);
    // Room for the queue and a few hundred rows' outcomes, not for the whole run.
    await admin.config('SET', 'maxmemory', String((await usedMemory(admin)) + 1800 * 1024));
    const firstOom = watchFirstOom(admin, () => pipeline.sandbox.stats().total);

    const run = pipeline.spawn(['run', source, '--force', '--concurrency', '4'], env());
    const exited = await run.exited;

    const requestsAtFirstOom = await firstOom.stop();
    expect(exited.code, run.stderr()).toBe(2);
    expectOneLine(
      run.stderr(),
      /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ is full \(used [\d.]+ [KM]iB of maxmemory [\d.]+ [KM]iB\), this run needs about [\d.]+ [KM]iB more; raise maxmemory or free space; then run again$/,
    );
    // Filled by the run itself, part way: some products were created, not all.
    const writes = pipeline.sandbox.stats().writesApplied;
    expect(writes).toBeGreaterThan(0);
    expect(writes).toBeLessThan(rows.length);
    // Answered after Redis refused: the requests under way then (at most --concurrency), and at most
    // one more per slot, started by an answer the tool read before the refusal's reply reached it (on
    // a loaded machine that reply can come a few milliseconds after the refusal). None after that.
    expect(requestsAtFirstOom).not.toBeNull();
    expect(pipeline.sandbox.stats().total - (requestsAtFirstOom ?? 0)).toBeLessThanOrEqual(2 * 4);
    // The rows not settled stay queued: the run is not done, and not all rows have an outcome.
    const status = JSON.parse((await pipeline.cli(['status', '--json'], env())).stdout) as {
      state: string;
      settled: number;
      redis: { maxmemory: number; policy: string };
    };
    expect(status.state).not.toBe('done');
    expect(status.settled).toBeLessThan(rows.length);
    expect(status.redis.policy).toBe('noeviction');
    expect((await pipeline.cli(['status'], env())).stdout).toMatch(
      /\n {2}redis {5}used [\d.]+ [KM]iB of maxmemory [\d.]+ [KM]iB, maxmemory-policy noeviction\n/,
    );

    await admin.config('SET', 'maxmemory', '0');
    const again = pipeline.spawn(['run', source, '--concurrency', '4'], env());

    expect(await again.exited, again.stderr()).toEqual({ code: 0, signal: null });
    expectExactCatalog(pipeline.products(), rows);
    const creates = createsBySku(pipeline.sandbox.requests());
    expect([...creates.values()].filter((count) => count > 1)).toEqual([]);
    expect(creates.size).toBe(rows.length);
  });

  it('a run stopped while its source was still being read is ended by the re-run, which starts over and ends exact', {
    timeout: 120_000,
  }, async () => {
    const rows = catalogRows(1500);
    const source = await pipeline.csv('catalog.csv', rows);
    // Not even room for the whole queue: Redis is full before the source is read to the end.
    await admin.config('SET', 'maxmemory', String((await usedMemory(admin)) + 1000 * 1024));

    const run = pipeline.spawn(['run', source, '--force', '--concurrency', '4'], env());
    expect((await run.exited).code, run.stderr()).toBe(2);
    expectOneLine(run.stderr(), /is full \(used .*\), this run needs about [\d.]+ MiB more; raise maxmemory/);
    const stopped = JSON.parse((await pipeline.cli(['status', '--json'], env())).stdout) as {
      id: string;
      produced: boolean;
    };
    expect(stopped.produced).toBe(false);

    await admin.config('SET', 'maxmemory', '0');
    const again = pipeline.spawn(['run', source, '--concurrency', '4'], env());

    expect(await again.exited, again.stderr()).toEqual({ code: 0, signal: null });
    expect(again.stderr()).toContain(
      `run ${stopped.id} stopped before its source was read to the end: it ends once the rows under way settle`,
    );
    expectExactCatalog(pipeline.products(), rows);
    const creates = createsBySku(pipeline.sandbox.requests());
    expect([...creates.values()].filter((count) => count > 1)).toEqual([]);
    const ended = JSON.parse((await pipeline.cli(['status', stopped.id, '--json'], env())).stdout) as {
      state: string;
      aborted: boolean;
    };
    expect(ended).toMatchObject({ state: 'done', aborted: true });
  });

  it('a worker takes no new job while Redis is full, says so once, and goes on once there is room', {
    timeout: 120_000,
  }, async () => {
    const rows = catalogRows(800);
    const source = await pipeline.csv('catalog.csv', rows);
    const queued = await pipeline.cli(['import', source], env());
    expect(queued.code, queued.stderr).toBe(0);
    await admin.config('SET', 'maxmemory', String((await usedMemory(admin)) + 200 * 1024));

    const worker = pipeline.spawn(['worker', '--concurrency', '4'], { ...env(), LOG_LEVEL: 'info' });
    await worker.waitForStderr(/is full \(used/);
    const requestsWhenFull = pipeline.sandbox.stats().total;
    // Longer than a probe of the worker (2 s): it tries a write, not a job.
    await new Promise((resolve) => setTimeout(resolve, 4000));

    expect(pipeline.sandbox.stats().total - requestsWhenFull).toBeLessThanOrEqual(4);
    expect(pipeline.sandbox.stats().writesApplied).toBeLessThan(rows.length);
    const fullLines = worker.stderr().match(/is full \(used/g) ?? [];
    expect(fullLines).toHaveLength(1);
    expect(worker.stderr()).toMatch(
      /Redis at redis:\/\/127\.0\.0\.1:\d+ is full \(used [\d.]+ [KM]iB of maxmemory [\d.]+ [KM]iB\), the queued runs need about [\d.]+ [KM]iB more; raise maxmemory or free space; no new job is taken until it accepts writes again/,
    );
    expect(worker.stderr()).not.toMatch(/chunk failed|"level":40/);

    await admin.config('SET', 'maxmemory', '0');
    await worker.waitForStderr(/takes writes again/);
    const deadline = Date.now() + 60_000;
    while (pipeline.sandbox.stats().writesApplied < rows.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expectExactCatalog(pipeline.products(), rows);
  });
});
