import { utimes } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, type Pipeline, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { until } from '../support/until.js';

// 3 chunks of 100 rows, 40 ms an answer: the kill lands with chunks under way and rows unsent.
const PRODUCTS = 300;
// The seam: a killed process's chunk locks run out in 1 s (8 s by default), and the live process's
// stall check looks every 200 ms.
const LOCKS = { CATALOG_SYNC_LOCK_MS: '1000', CATALOG_SYNC_STALL_CHECK_MS: '200' };

function seed(pipeline: Pipeline): void {
  pipeline.sandbox.seedProducts(
    MAIN_SELLER,
    catalogRows(PRODUCTS).map(({ sku, name, price }) => ({ sku, name, price: Number(price) })),
  );
}

/** The night's file, at one path night after night: each price its base plus `plus`, its own mtime. */
async function nightlyFile(pipeline: Pipeline, plus: number, night: number): Promise<string> {
  const rows = catalogRows(PRODUCTS).map((row) => ({ ...row, price: (Number(row.price) + plus).toFixed(2) }));
  const path = await pipeline.csv('feed.csv', rows);
  const at = new Date(Date.UTC(2026, 0, night, 2));
  await utimes(path, at, at);
  return path;
}

async function statusOf(pipeline: Pipeline, runId?: string) {
  return JSON.parse((await pipeline.cli(['status', ...(runId ? [runId] : []), '--json'])).stdout);
}

/** The run's chunks BullMQ lists as active, and how many of them a live process still holds. */
async function activeChunks(pipeline: Pipeline, sellerRef: string, runId: string) {
  const queue = `${pipeline.prefix}:${new RedisKeys(pipeline.prefix).sellerQueue(sellerRef)}:`;
  return withRedis(async (redis) => {
    const ids = (await redis.lrange(`${queue}active`, 0, -1)).filter((id) => id.startsWith(runId));
    const locked = await Promise.all(ids.map((id) => redis.exists(`${queue}${id}:lock`)));
    return { active: ids.length, locked: locked.filter((found) => found === 1).length };
  });
}

describe('a changed file the night after a `run` killed (kill -9) once it had read its source', () => {
  const pipeline = usePipeline({ latencyMs: 40 });

  it("supersedes the killed run: nobody writes it, and tonight's run sends tonight's values only", {
    timeout: 60_000,
  }, async () => {
    seed(pipeline);
    const lastNight = pipeline.spawn(['run', await nightlyFile(pipeline, 100, 3)], LOCKS);
    let killed: { id: string; sellerRef: string } | null = null;
    await until('the source read to its end and some rows written', async () => {
      if (pipeline.sandbox.stats().writesApplied < 20) return false;
      const status = await statusOf(pipeline);
      if (status.produced) killed = status;
      return status.produced === true;
    });
    lastNight.process.kill('SIGKILL');
    await lastNight.exited;
    if (!killed) throw new Error('no run');
    const { id: lastNightRun, sellerRef } = killed;
    // Its chunks under way stay listed active (no worker's stall check runs), their locks run out.
    await until('its chunk locks run out', async () => {
      const chunks = await activeChunks(pipeline, sellerRef, lastNightRun);
      return chunks.active > 0 && chunks.locked === 0;
    });
    const atKill = await statusOf(pipeline, lastNightRun);
    expect(atKill.settled).toBeLessThan(PRODUCTS);
    pipeline.sandbox.resetStats();

    const tonight = await pipeline.cli(['run', await nightlyFile(pipeline, 200, 4)], LOCKS);

    expect(tonight.code, tonight.stderr).toBe(0);
    const tonightRun = runIdOf(tonight.stdout);
    expect(tonightRun).not.toBe(lastNightRun);
    // Last night's rows not yet sent are skipped, not sent: every PUT carries tonight's price, once a product.
    const puts = pipeline.sandbox
      .requests()
      .filter((request) => request.method === 'PUT' && request.status === 200)
      .map((request) => Number((request.body as { price?: unknown }).price));
    expect(puts.filter((price) => price < 200)).toEqual([]);
    expect(puts).toHaveLength(PRODUCTS);
    // The sandbox saw tonight's run's requests only.
    const done = await statusOf(pipeline, tonightRun);
    expect(done).toMatchObject({ state: 'done', settled: PRODUCTS });
    expect(pipeline.sandbox.requests()).toHaveLength(done.requests);
    const earlier = await statusOf(pipeline, lastNightRun);
    expect(earlier).toMatchObject({ state: 'cancelled', supersededBy: tonightRun, settled: PRODUCTS });
    expect(earlier.stateText).toContain(`superseded by run ${tonightRun}`);
    expect(earlier.counts.skipped).toBeGreaterThan(0);
    expect(earlier.counts.updated + earlier.counts.skipped).toBe(PRODUCTS);
    expect(earlier.counts.failed).toBe(0);
  });
});
