import { afterEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { RedisStall } from '../support/redis-stall.js';

/** The tail of the line of an interrupt that only cut the closing short. */
const CUT_SHORT =
  'only the closing was cut short (a chunk this process still held goes back to the queue when its ' +
  'lock runs out), nothing is lost.\n';

/**
 * `run` interrupted once it has said how its run ended, while it closes: its run's own handler is
 * gone by then, and the launcher's bare `interrupted (SIGINT)` left cron's mail to guess whether the
 * run was cut short.
 */
describe('when `run` is interrupted while it closes, once it has said how its run ended', () => {
  let writesHeld = false;
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Once `writesHeld`, the create of SKU-2 waits until the test ends: its chunk cannot finish.
  const pipeline = usePipeline({
    hold: (request) =>
      writesHeld && request.method === 'POST' && request.body?.includes('"SKU-2"') ? released : undefined,
  });
  let stall: RedisStall | null = null;
  // Registered after usePipeline, so it runs first: the sandbox answers what it held, then closes.
  afterEach(async () => {
    release();
    await stall?.close();
    stall = null;
  });

  it('after its summary, as it closes its connections to Redis: says the run had ended, exit 130', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(5);
    const source = await pipeline.csv('catalog.csv', rows);
    // The first QUIT: the runtime's close, after the workers closed; held back, it keeps `run` there.
    stall = await RedisStall.start('$4\r\nquit\r\n');
    const run = pipeline.spawn(['run', source], { REDIS_URL: stall.url });
    await stall.stalled;
    const runId = runIdOf(run.stdout());

    run.process.kill('SIGINT');

    // Said while the close is still held back, not once it is over.
    await run.waitForStderr(/interrupted/);
    stall.release();
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stdout()).toMatch(new RegExp(`^run ${runId}: done`, 'm'));
    expect(run.stderr()).toBe(
      `catalog-sync: interrupted (SIGINT) while closing: run ${runId} had ended, as said above; ${CUT_SHORT}`,
    );
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as {
      state: string;
      counts: Record<string, number>;
    };
    expect(status.state).toBe('done');
    expect(status.counts).toMatchObject({ created: rows.length, failed: 0 });
  });

  it('after its pause line (--no-wait), its workers waiting for a chunk whose create gets no answer: ' +
    'says the run had stopped, exit 143 without waiting for the chunk', {
    timeout: 60_000,
  }, async () => {
    // The listing and SKU-1's create use the day; SKU-3's create meets the limit while SKU-2's is held.
    pipeline.sandbox.setFaults({ dailyLimit: 2 });
    writesHeld = true;
    const source = await pipeline.csv('catalog.csv', catalogRows(5));
    // Far off: without an answer to the interrupt, the process would wait there for the chunk.
    const run = pipeline.spawn(['run', source, '--no-wait', '--concurrency', '2'], {
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '600000',
    });
    await run.waitForStderr(/rows stay queued and resume after the reset/);
    const runId = runIdOf(run.stderr());

    run.process.kill('SIGTERM');

    // The create of SKU-2 is still held: the chunk under way did not end, the close was given up.
    expect(await run.exited).toEqual({ code: 143, signal: null });
    expect(run.stderr().split('\n').at(-2)).toBe(
      `catalog-sync: interrupted (SIGTERM) while closing: run ${runId} had stopped, as said above; ${CUT_SHORT}`.trimEnd(),
    );
  });
});
