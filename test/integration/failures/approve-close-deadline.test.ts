import { afterEach, describe, expect, it } from 'vitest';
import { fourPricedRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * `approve` stopped (SIGTERM, as a cron job's timeout sends it) while a chunk of its writes is under
 * way and cannot finish: its PUT gets no answer. Its workers' close waits for that chunk (the
 * request's 30 s timeout, then its retries); the command does not: it exits 143 with its line within
 * the close deadline, scaled here to 500 ms (CATALOG_SYNC_CLOSE_DEADLINE_MS), as `run` does.
 */
describe('approve, when its workers cannot close promptly', () => {
  const CLOSE_DEADLINE_MS = 500;
  let holding = false;
  let putHeld: () => void = () => {};
  let release: () => void = () => {};
  const answered = new Promise<void>((resolve) => {
    release = resolve;
  });
  // Every PUT, once `holding`, waits until the test ends: the chunk under way cannot finish.
  const pipeline = usePipeline({
    hold: (request) => {
      if (!holding || request.method !== 'PUT') return undefined;
      putHeld();
      return answered;
    },
  });
  // Registered after usePipeline, so it runs first: the sandbox answers what it held, then closes.
  afterEach(() => release());

  it('exits 143 with its line within the deadline, its chunk still under way', {
    timeout: 30_000,
  }, async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('a.csv', fourPricedRows(0))])).code).toBe(0);
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('b.csv', fourPricedRows(1)),
      '--max-updates',
      '1',
    ]);
    expect(held.code).toBe(5);
    const id = runIdOf(held.stdout);
    const firstPut = new Promise<void>((resolve) => {
      putHeld = resolve;
    });
    holding = true;

    const approve = pipeline.spawn(['approve', id, '--concurrency', '1'], {
      CATALOG_SYNC_CLOSE_DEADLINE_MS: String(CLOSE_DEADLINE_MS),
    });
    await firstPut;
    approve.process.kill('SIGTERM');

    // Without the deadline it is still waiting for its chunk (30 s and more); with the unscaled
    // one, 10 s. The bound tells ended from still waiting, well over the scaled deadline and the
    // process's stop (~0.7 s here): no duration is asserted (timings are bench/'s).
    const bound = new Promise((resolve) => setTimeout(() => resolve('still running'), 8000));
    expect(await Promise.race([approve.exited, bound])).toEqual({ code: 143, signal: null });
    expect(approve.stderr().trim().split('\n').at(-1)).toBe(
      `catalog-sync: interrupted (SIGTERM): 0 of the 4 approved rows of run ${id} settled before it stopped, ` +
        `4 stay queued and go on with any ` +
        `\`catalog-sync worker\` or another \`catalog-sync approve ${id}\`.`,
    );
  });
});
