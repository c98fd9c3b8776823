import { afterEach, describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { CliProcesses, runIdOf } from '../support/cli.js';
import { useOwnRedis } from '../support/own-redis.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';
import { until } from '../support/until.js';
import { expectExactCatalog } from './support/exact-catalog.js';

/** A chunk's job lock, short so that an outage outlasts it within the test. */
const LOCK_MS = 2000;

/** What `status --json` says of a run: its state, its rows' outcomes and its requests. */
interface CountedStatus {
  state: string;
  settled: number;
  counts: Record<string, number>;
  requests: number;
  writes: number;
  requestsAtLeast?: boolean;
}

/** The same products with other prices: a run of them sends only PUTs. */
function repriced(rows: CatalogRow[]): CatalogRow[] {
  return rows.map((row) => ({ ...row, price: (Number(row.price) + 1.25).toFixed(2) }));
}

/**
 * Redis (AOF on) restarted after a pause longer than a chunk's job lock: the locks of the chunks
 * under way ran out meanwhile, and the worker's stall check hands them out again while their first
 * attempts, in the same process, still go on. Each row is sent once; the run's counts are its own.
 */
describe('when Redis comes back after the job locks ran out', () => {
  // Slow answers and two requests at a time: two chunks are under way when Redis goes.
  const pipeline = usePipeline({ latencyMs: 40 });
  const own = useOwnRedis();
  const processes = new CliProcesses();
  // Registered after useOwnRedis, so it runs first: the CLI children stop before their Redis does.
  afterEach(() => processes.stopAll());

  const env = () => ({
    ...pipeline.env,
    REDIS_URL: own.redis.url,
    CATALOG_SYNC_LOCK_MS: String(LOCK_MS),
    LOG_LEVEL: 'warn',
  });
  const status = async (runId: string): Promise<CountedStatus> => {
    const printed = JSON.parse((await pipeline.cli(['status', runId, '--json'], env())).stdout);
    const { state, settled, counts, requests, writes, requestsAtLeast } = printed as CountedStatus;
    return { state, settled, counts, requests, writes, requestsAtLeast };
  };

  /** `import` of `rows` served by a `worker` whose Redis stops once `cut` holds, and comes back. */
  async function importAcrossRestart(rows: CatalogRow[], cut: () => boolean) {
    const source = await pipeline.csv('feed.csv', rows);
    pipeline.sandbox.resetStats();
    const worker = processes.spawn(['worker', '--concurrency', '2'], env());
    const queued = await pipeline.cli(['import', source], env());
    expect(queued.code, queued.stderr).toBe(0);
    const runId = runIdOf(queued.stdout);
    await until('some writes', cut);

    await own.redis.stop();
    // Down for longer than a lock: the chunks under way lose theirs (their expiry is a time, not a span).
    await new Promise((resolve) => setTimeout(resolve, LOCK_MS + 1000));
    await own.redis.start();

    await until('the run done', async () => (await status(runId)).state === 'done', 60_000);
    const ended = await status(runId);
    // What is still under way finishes before the worker stops (SIGTERM loses nothing).
    worker.process.kill('SIGTERM');
    expect((await worker.exited).code, worker.stderr()).toBe(0);
    return { runId, ended, after: await status(runId), worker };
  }

  it('sends each update once, and the run ended keeps its counts', { timeout: 90_000 }, async () => {
    const rows = catalogRows(300);
    const first = await pipeline.cli(['run', await pipeline.csv('v1.csv', rows)], env());
    expect(first.code, first.stderr).toBe(0);
    const changed = repriced(rows);

    const { ended, after } = await importAcrossRestart(
      changed,
      () => requestCounts(pipeline.sandbox.stats()).updates >= 20,
    );

    expectExactCatalog(pipeline.products(), changed);
    expect(requestCounts(pipeline.sandbox.stats()).updates, 'PUTs sent').toBe(rows.length);
    // No process died: the counts are not lower bounds, and they do not move once the run ended.
    expect(ended.requestsAtLeast).toBeUndefined();
    expect(after).toEqual(ended);
  });

  it('sends each create once and no look-up after it, and the run ended keeps its counts', {
    timeout: 90_000,
  }, async () => {
    const rows = catalogRows(300);

    const { ended, after } = await importAcrossRestart(
      rows,
      () => requestCounts(pipeline.sandbox.stats()).creates >= 20,
    );

    expectExactCatalog(pipeline.products(), rows);
    const counts = requestCounts(pipeline.sandbox.stats());
    expect(counts.creates, 'POSTs sent').toBe(rows.length);
    // The list read only (one page: the seller had nothing yet): no look-up for a product created.
    expect(counts.lists, 'GETs sent').toBe(1);
    expect(ended.requestsAtLeast).toBeUndefined();
    expect(after).toEqual(ended);
  });
});
