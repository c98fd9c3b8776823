import { afterEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { CliProcesses, runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { useStallingFeed } from '../support/stalling-feed.js';
import { until } from '../support/until.js';

describe('when `run` is interrupted (SIGINT or SIGTERM)', () => {
  const pipeline = usePipeline({ latencyMs: 30 });
  const processes = new CliProcesses();
  const stallingFeed = useStallingFeed();
  afterEach(async () => {
    await processes.stopAll();
  });

  it('after the source is read: exits 130, and a worker ends the run exact', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(300);
    const source = await pipeline.csv('catalog.csv', rows);
    const run = processes.spawn(['run', source, '--concurrency', '2'], pipeline.env);
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 20);

    run.process.kill('SIGINT');

    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stderr()).toMatch(/interrupted \(SIGINT\): run .* rows stay queued/);
    const runId = runIdOf(run.stderr());
    processes.spawn(['worker'], pipeline.env);
    await until('the run to end', async () => {
      const status = await pipeline.cli(['status', runId, '--json']);
      return (JSON.parse(status.stdout) as { state: string }).state === 'done';
    });
    const products = pipeline.products();
    expect(products).toHaveLength(300);
    expect(new Set(products.map((p) => p.sku)).size).toBe(300);
  });

  it('while the source is still being read: exits 143, and the run is ended, not left half-queued', {
    timeout: 60_000,
  }, async () => {
    // A feed that sends more than the sniffed 64 KiB, then stalls: the run is mid-read.
    const url = await stallingFeed();
    const run = processes.spawn(['run', url], pipeline.env);
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 5);

    run.process.kill('SIGTERM');

    expect(await run.exited).toEqual({ code: 143, signal: null });
    expect(run.stderr()).toContain('before the source was read to the end');
    const status = JSON.parse((await pipeline.cli(['status', runIdOf(run.stderr()), '--json'])).stdout) as {
      state: string;
      aborted: boolean;
      produced: boolean;
    };
    expect(status).toMatchObject({ state: 'done', aborted: true, produced: false });
  });
});
