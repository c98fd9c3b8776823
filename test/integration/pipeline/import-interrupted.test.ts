import { describe, expect, it } from 'vitest';
import { type CliResult, runIdOf, startCli } from '../support/cli.js';
import { type Pipeline, requestCounts, usePipeline } from '../support/pipeline.js';
import { useStallingFeed } from '../support/stalling-feed.js';
import { until } from '../support/until.js';

// The stalled answer: 30 chunks of 100 rows, then 50 rows read that no chunk holds yet when the feed
// stalls; the answer the re-import gets sends the same rows and 450 more, and ends.
const STALLED_ROWS = 3050;
const QUEUED = 3000;
const WHOLE_ROWS = 3500;

interface Status {
  id: string;
  state: string;
  total: number;
  settled: number;
  produced: boolean;
  aborted: boolean;
  readerStopped: boolean;
  stateText: string;
}

async function status(pipeline: Pipeline, id?: string): Promise<Status> {
  const said = await pipeline.cli(['status', ...(id ? [id] : []), '--json']);
  return JSON.parse(said.stdout) as Status;
}

/** The line an interrupted import ends with, for run `id` and `signal`. */
function interruptedLine(signal: string, id: string): string {
  return (
    `catalog-sync: interrupted (${signal}) after queueing ${QUEUED} of the source's rows: ` +
    `run ${id}'s rows stay queued and go on with any \`catalog-sync worker\`; the rest of the source ` +
    `is unread: run the same source again (that ends this run and reads the source anew), or ` +
    `\`catalog-sync cancel ${id}\`.\n`
  );
}

/**
 * What an interrupted import must leave: its run counted to the last chunk it queued, stopped
 * before the end of its source (status says so), its queued rows written by a worker and nothing
 * more; then a re-import of the whole source ends it and writes every row once.
 */
async function expectLeftToWorkers(pipeline: Pipeline, id: string, url: string): Promise<void> {
  const stopped = await status(pipeline, id);
  expect(stopped).toMatchObject({ total: QUEUED, produced: false, aborted: false, readerStopped: true });
  expect(stopped.stateText).toContain('its source was left unread');

  const worker = pipeline.spawn(['worker']);
  await until('the queued rows written', async () => (await status(pipeline, id)).settled === QUEUED, 60_000);
  // Nothing more: the rows read but not queued are not the run's.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(await status(pipeline, id)).toMatchObject({ total: QUEUED, settled: QUEUED, readerStopped: true });
  expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(QUEUED);

  const again = await pipeline.cli(['import', url]);
  expect(again.code).toBe(0);
  const rerun = again.stdout.trim();
  await until('the re-import done', async () => (await status(pipeline, rerun)).state === 'done', 60_000);
  worker.process.kill('SIGTERM');
  await worker.exited;

  expect(await status(pipeline, id)).toMatchObject({ state: 'done', aborted: true, total: QUEUED });
  const whole = await status(pipeline, rerun);
  expect(whole).toMatchObject({ state: 'done', aborted: false, total: WHOLE_ROWS, settled: WHOLE_ROWS });
  const products = pipeline.products();
  expect(products).toHaveLength(WHOLE_ROWS);
  expect(new Set(products.map((p) => p.sku)).size).toBe(WHOLE_ROWS);
  expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(WHOLE_ROWS);
}

/** `promise`, or a rejection after `ms`: a call that never hears its interrupt fails, not hangs. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not ended ${ms} ms after the interrupt`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('`import` interrupted while it reads and queues its source', () => {
  const pipeline = usePipeline();
  const stallingFeed = useStallingFeed();
  const stalled = () => stallingFeed({ rows: STALLED_ROWS, stalls: 1, wholeRows: WHOLE_ROWS });
  const queuedAll = async () => {
    const run = await status(pipeline).catch(() => null);
    return run !== null && run.total >= QUEUED;
  };

  it('in this process: one line, exit 130, the queued rows left to the workers', {
    timeout: 90_000,
  }, async () => {
    const url = await stalled();
    const call = startCli(['import', url], pipeline.env);
    await until('the rows before the stall queued', queuedAll);

    call.interrupt();
    const result: CliResult = await within(call.result, 10_000, 'import');

    const id = runIdOf(result.stderr);
    expect(result).toEqual({ code: 130, stdout: '', stderr: interruptedLine('SIGINT', id) });
    await expectLeftToWorkers(pipeline, id, url);
  });

  it('as a process killed with SIGINT: the same line, exit 130, the queued rows left to the workers', {
    timeout: 90_000,
  }, async () => {
    const url = await stalled();
    const child = pipeline.spawn(['import', url]);
    await until('the rows before the stall queued', queuedAll);

    child.process.kill('SIGINT');

    expect(await within(child.exited, 10_000, 'import')).toEqual({ code: 130, signal: null });
    const id = runIdOf(child.stderr());
    expect(child.stdout()).toBe('');
    expect(child.stderr()).toBe(interruptedLine('SIGINT', id));
    await expectLeftToWorkers(pipeline, id, url);
  });

  it('as a process killed with SIGTERM (cron, systemd): exit 143, the run left as SIGINT leaves it', {
    timeout: 30_000,
  }, async () => {
    const child = pipeline.spawn(['import', await stalled()]);
    await until('the rows before the stall queued', queuedAll);

    child.process.kill('SIGTERM');

    expect(await within(child.exited, 10_000, 'import')).toEqual({ code: 143, signal: null });
    const id = runIdOf(child.stderr());
    expect(child.stderr()).toBe(interruptedLine('SIGTERM', id));
    expect(await status(pipeline, id)).toMatchObject({ total: QUEUED, produced: false, readerStopped: true });
  });
});
