import { afterEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, MAIN_SELLER, usePipeline } from '../support/pipeline.js';

/**
 * `run` of a seller paused by a rejected key (401) checks the key first (one GET /ping, up to 15 s
 * and its retries, before the run exists). Here the API does not answer that ping: an interrupt
 * meanwhile is said at once, the check abandoned, rather than once the ping gives up.
 */
describe('when `run` is interrupted while it checks the key of a seller paused by a rejected key', () => {
  let pingHeld: () => void = () => {};
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holdingPing = false;
  const pipeline = usePipeline({
    hold: (request) => {
      if (!holdingPing || request.path !== '/ping') return undefined;
      pingHeld();
      return answered;
    },
  });
  // Registered after usePipeline, so it runs first: the sandbox answers what it held, then closes.
  afterEach(() => release());

  it('says so at once in one line, exit 130: nothing queued or sent, the seller still paused', {
    timeout: 60_000,
  }, async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    pipeline.sandbox.revokeKey(MAIN_KEY);
    const rejected = await pipeline.cli(['run', source]);
    expect(rejected.code, rejected.stderr).toBe(3);
    const firstRun = runIdOf(rejected.stderr);
    const { sellerRef } = JSON.parse((await pipeline.cli(['status', firstRun, '--json'])).stdout) as {
      sellerRef: string;
    };
    // The key works again (the next night's cron): the run checks it before it queues anything.
    pipeline.sandbox.addKey(MAIN_KEY, MAIN_SELLER);
    const held = new Promise<void>((resolve) => {
      pingHeld = resolve;
    });
    holdingPing = true;
    const requestsBefore = pipeline.sandbox.stats().total;
    const run = pipeline.spawn(['run', source]);
    await held;

    run.process.kill('SIGINT');

    // The ping still gets no answer: the process did not wait for it.
    expect(await run.exited).toEqual({ code: 130, signal: null });
    expect(run.stdout()).toBe('');
    expect(run.stderr()).toBe(
      `catalog-sync: interrupted (SIGINT) while checking the key in SELLER_API_KEY for seller ${sellerRef}, ` +
        'paused by a rejected key (401): the check was abandoned, the seller stays paused; no row was queued or sent\n',
    );
    expect(pipeline.sandbox.stats().total - requestsBefore, 'requests answered since').toBe(0);
    const status = JSON.parse((await pipeline.cli(['status', '--json'])).stdout) as {
      id: string;
      seller: { authRejected: boolean };
    };
    expect(status.id, 'the latest run: no other was created').toBe(firstRun);
    expect(status.seller.authRejected).toBe(true);
  });
});
