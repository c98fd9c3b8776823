import { afterEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { CliProcesses } from '../support/cli.js';
import { useOwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { eventually } from './support/rig.js';

describe('when Redis goes away in the middle of a run', () => {
  const pipeline = usePipeline({ latencyMs: 20 });
  const own = useOwnRedis();
  const processes = new CliProcesses();
  // Registered after useOwnRedis, so it runs first: the CLI children stop before their Redis does.
  afterEach(() => processes.stopAll());

  it('goes on after a restart (AOF on) and ends exact, with no duplicate', { timeout: 60_000 }, async () => {
    const { redis } = own;
    const rows = catalogRows(300);
    const source = await pipeline.csv('catalog.csv', rows);
    const run = processes.spawn(['run', source, '--concurrency', '4'], {
      ...pipeline.env,
      REDIS_URL: redis.url,
    });
    await eventually('some writes', () => (pipeline.sandbox.stats().writesApplied >= 40 ? true : undefined));

    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await redis.start();

    expect(await run.exited).toEqual({ code: 0, signal: null });
    expectExactCatalog(pipeline.products(), rows);
  });

  it('says so in one line and exits 2 when it does not come back; nothing is written twice', {
    timeout: 60_000,
  }, async () => {
    const { redis } = own;
    const rows = catalogRows(300);
    const source = await pipeline.csv('catalog.csv', rows);
    const run = processes.spawn(['run', source, '--concurrency', '4'], {
      ...pipeline.env,
      REDIS_URL: redis.url,
      CATALOG_SYNC_REDIS_DEADLINE_MS: '2000',
    });
    await eventually('some writes', () => (pipeline.sandbox.stats().writesApplied >= 40 ? true : undefined));

    await redis.stop();

    expect(await run.exited).toEqual({ code: 2, signal: null });
    const lines = run.stderr().trim().split('\n');
    expect(lines.at(-1)).toMatch(
      /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ has not answered for 2 s; stopping\./,
    );
    expect(run.stderr()).not.toMatch(/\n\s+at /);
    const skus = pipeline.products().map((p) => p.sku);
    expect(new Set(skus).size).toBe(skus.length);
  });
});
