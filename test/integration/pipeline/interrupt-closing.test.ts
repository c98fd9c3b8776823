import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE } from '../../../src/defaults.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
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
  // Per test: once `holding`, the create of SKU-00002 waits until the test ends (its chunk cannot finish).
  let holding = false;
  let createHeld: () => void = () => {};
  let release: () => void = () => {};
  let released = Promise.resolve();
  beforeEach(() => {
    holding = false;
    released = new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  const pipeline = usePipeline({
    hold: (request) => {
      if (!holding || request.method !== 'POST' || !request.body?.includes('"SKU-00002"')) return undefined;
      createHeld();
      return released;
    },
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

  it('after its line of a rejected key, its workers waiting for a chunk whose create gets no answer: ' +
    'says the run had stopped, exit 143 without waiting for the chunk', {
    timeout: 60_000,
  }, async () => {
    // Two chunks at once: the first's create of SKU-00002 gets no answer, and the key is revoked as
    // it comes; the next requests meet the 401, the other chunk pauses the seller, and the run's
    // wait ends (exit 3) while the first chunk still waits for its answer.
    const held = new Promise<void>((resolve) => {
      createHeld = () => {
        pipeline.sandbox.revokeKey(MAIN_KEY);
        resolve();
      };
    });
    holding = true;
    const source = await pipeline.csv('catalog.csv', catalogRows(DEFAULT_CHUNK_SIZE + 50));
    // Far off: without an answer to the interrupt, the process would wait there for the chunk.
    const run = pipeline.spawn(['run', source, '--concurrency', '2'], {
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '600000',
    });
    await held;
    await run.waitForStderr(/rejected \(401\).*\n/);
    const runId = runIdOf(run.stderr());

    run.process.kill('SIGTERM');

    // The create of SKU-00002 is still held: the chunk under way did not end, the close was given up.
    expect(await run.exited).toEqual({ code: 143, signal: null });
    expect(run.stderr().split('\n').at(-2)).toBe(
      `catalog-sync: interrupted (SIGTERM) while closing: run ${runId} had stopped, as said above; ${CUT_SHORT}`.trimEnd(),
    );
  });
});
