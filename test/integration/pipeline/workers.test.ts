import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf, waitUntilDone } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';

const ROWS = 600;

describe('several `worker` processes on one run', () => {
  const pipeline = usePipeline({ latencyMs: 2 });

  const waitForRun = (runId: string) => waitUntilDone(pipeline.cli, runId, 60_000);

  it('settles every row once, creates no duplicate, and both workers stop cleanly on SIGTERM', async () => {
    const rows = catalogRows(ROWS);
    const imported = await pipeline.cli(['import', await pipeline.csv('catalog.csv', rows)]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    const env = { LOG_LEVEL: 'info' };
    const workers = [pipeline.spawn(['worker', '--concurrency', '4'], env), pipeline.spawn(['worker'], env)];

    const status = await waitForRun(runId);

    expect(status).toMatchObject({ total: ROWS, settled: ROWS, counts: { created: ROWS, failed: 0 } });
    expect(pipeline.products()).toHaveLength(ROWS);
    expect(bySku(pipeline.products()).size).toBe(ROWS);
    expect(pipeline.sandbox.stats().byRoute['POST /products']).toBe(ROWS);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.map((line) => line.row)).toEqual(rows.map((_, i) => String(i + 1)));
    expect(new Set(report.map((line) => line.product_id)).size).toBe(ROWS);

    for (const worker of workers) worker.process.kill('SIGTERM');
    const exits = await Promise.all(workers.map((worker) => worker.exited));
    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
  });

  it('picks up a run imported after the workers started (the seller registry is polled)', async () => {
    const env = { LOG_LEVEL: 'info' };
    const workers = [pipeline.spawn(['worker'], env), pipeline.spawn(['worker'], env)];
    await Promise.all(workers.map((worker) => worker.waitForStderr(/worker started/)));

    const runId = runIdOf(
      (await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(150))])).stdout,
    );

    expect(await waitForRun(runId)).toMatchObject({ settled: 150, counts: { created: 150 } });
    expect(pipeline.products()).toHaveLength(150);
    for (const worker of workers) worker.process.kill('SIGTERM');
    expect((await Promise.all(workers.map((worker) => worker.exited))).map((exit) => exit.code)).toEqual([
      0, 0,
    ]);
  });
});
