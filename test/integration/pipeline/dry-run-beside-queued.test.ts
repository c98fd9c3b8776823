import { afterEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { CliProcesses, runIdOf, waitUntilDone } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { until } from '../support/until.js';

/** The keys of runs' own queues (a `run --dry-run`'s) left under the prefix. */
async function ownQueueKeys(prefix: string): Promise<string[]> {
  return withRedis(async (redis) => redis.keys(`${prefix}:sync-*-run-*`));
}

describe('a `run --dry-run` while another run of the seller is still queued', () => {
  const pipeline = usePipeline({ latencyMs: 30 });
  const processes = new CliProcesses();
  afterEach(() => processes.stopAll());

  const status = async (runId: string) =>
    JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as {
      state: string;
      settled: number;
    };

  /** A run stopped by Ctrl-C once its source is read: its rows not yet synced stay queued. */
  async function stoppedRun(source: string): Promise<string> {
    // Two chunks at once: most of its five chunks are still waiting when it stops.
    const run = processes.spawn(['run', source, '--concurrency', '2'], pipeline.env);
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 20, 30_000);
    run.process.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stderr()).toMatch(/interrupted \(SIGINT\): run .* rows stay queued/);
    return runIdOf(run.stderr());
  }

  it('sends no POST or PUT, plans against the products as they are, and leaves that run queued as it was', {
    timeout: 90_000,
  }, async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(500));
    const stoppedId = await stoppedRun(source);
    const stopped = await status(stoppedId);
    const made = pipeline.products().length;
    expect(stopped.state).toBe('running');
    expect(made).toBeLessThan(500);
    const before = requestCounts(pipeline.sandbox.stats());

    const dry = await pipeline.cli(['run', source, '--dry-run']);

    const after = requestCounts(pipeline.sandbox.stats());
    expect(dry.code).toBe(0);
    expect({ creates: after.creates, updates: after.updates }).toEqual({
      creates: before.creates,
      updates: before.updates,
    });
    expect(pipeline.products()).toHaveLength(made);
    expect(dry.stdout).toContain(
      `rows      500: ${500 - made} to create, 0 to update, ${made} unchanged, 0 invalid, 0 failed`,
    );
    expect(dry.stderr).toContain(`run ${stoppedId} of the seller is still queued, not in it`);
    expect(await status(stoppedId)).toMatchObject({ state: 'running', settled: stopped.settled });
    expect(await ownQueueKeys(pipeline.prefix)).toEqual([]);
    // Its chunks were left as they were: a worker ends it, each product created once.
    processes.spawn(['worker'], pipeline.env);
    await waitUntilDone(pipeline.cli, stoppedId);
    const skus = pipeline.products().map((product) => product.sku);
    expect(new Set(skus).size).toBe(500);
    expect(skus).toHaveLength(500);
  });
});

describe('a `run --dry-run` that stops before its end', () => {
  const pipeline = usePipeline({ dailyLimit: 0 });

  it('is ended, not left queued where no worker would take it, and its queue is removed', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));

    const dry = await pipeline.cli(['run', source, '--dry-run', '--no-wait']);

    expect(dry.code).toBe(4);
    expect(dry.stderr).toMatch(
      /Dry run \S+ is ended \(nothing was written\); run it again after the reset\./,
    );
    const runId = runIdOf(dry.stderr);
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout)).toMatchObject({
      state: 'cancelled',
      dryRun: true,
    });
    expect(await ownQueueKeys(pipeline.prefix)).toEqual([]);
  });
});
