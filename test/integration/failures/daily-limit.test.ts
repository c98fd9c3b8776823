import { describe, expect, it } from 'vitest';
import type { TimedRequest } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { type FailureRig, runDone, SELLER_A, useFailureRig } from './support/rig.js';

// 120 rows and one list read at 40 requests a day: the run crosses at least two resets. A "day" is
// a second of wall clock; the 429 says its reset in epoch milliseconds, so the pause ends exactly then.
const ROWS = 120;
const DAILY_LIMIT = 40;
const DAY_MS = 1000;
const CONCURRENCY = 4;
/** Time for the answers already in flight when the first 429 came to land. */
const SETTLE_MS = 300;

interface Burst {
  /** The 429s in a row: one run of them per pause. */
  refused: number;
  /** When the first of them was answered, and when that sandbox day ended. */
  firstAt: number;
  resetAt: number;
  /** Requests answered from SETTLE_MS after the first 429 until the reset: sent while paused. */
  sentWhilePaused: number;
}

/** The runs of consecutive 429s in the sandbox's log, with what came during each pause. */
function refusalBursts(requests: TimedRequest[]): Burst[] {
  const bursts: Burst[] = [];
  let current: Burst | undefined;
  for (const request of requests) {
    if (request.status !== 429) {
      current = undefined;
      continue;
    }
    if (!current) {
      const resetAt = (Math.floor(request.at / DAY_MS) + 1) * DAY_MS;
      current = { refused: 0, firstAt: request.at, resetAt, sentWhilePaused: 0 };
      bursts.push(current);
    }
    current.refused++;
    if (request.at >= current.firstAt + SETTLE_MS && request.at < current.resetAt) current.sentWhilePaused++;
  }
  return bursts;
}

/**
 * At least two pauses; in each, no more 429s than the requests that may be in flight (`inFlight`),
 * nothing sent from SETTLE_MS after the first 429 until the reset, and a pause long enough to see it.
 */
function expectPausesKept(rig: FailureRig, inFlight: number): void {
  const bursts = refusalBursts(rig.sandbox.timedRequests());
  expect(bursts.length, 'pauses (runs of 429)').toBeGreaterThanOrEqual(2);
  for (const burst of bursts) {
    expect(burst.refused, '429s in one pause').toBeLessThanOrEqual(inFlight);
    expect(burst.sentWhilePaused, 'requests sent while paused').toBe(0);
  }
  const observed = bursts.filter((burst) => burst.resetAt - burst.firstAt > SETTLE_MS);
  expect(observed.length, 'pauses that outlast the settling of the answers in flight').toBeGreaterThan(0);
}

/**
 * Each pause the run waits out is said on stderr as it begins, and its log line says the same end:
 * a pause within a minute of the one before is not left to that one's line. (The wait in brackets
 * is left out: the two are computed a moment apart.)
 */
function expectEachPauseLogged(stderr: string): void {
  const withoutWait = (text: string) => text.replace(/ \(in [^)]*\)$/, '');
  const said = [...stderr.matchAll(/^catalog-sync: (paused until .*?) on /gm)].map((match) =>
    withoutWait(match[1] ?? ''),
  );
  const logged = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; until?: string })
    .filter((line) => line.msg?.startsWith('paused until '));
  expect(said.length, 'pauses said on stderr').toBeGreaterThanOrEqual(2);
  expect(logged.map((line) => withoutWait(line.msg ?? ''))).toEqual(said);
  expect(new Set(logged.map((line) => line.until)).size, 'pause ends logged').toBe(said.length);
}

describe(`a run that crosses the daily limit (${ROWS} rows, ${DAILY_LIMIT} requests a day, ${DAY_MS} ms days)`, () => {
  const rig = useFailureRig(() => ({
    dailyLimit: DAILY_LIMIT,
    dayLengthMs: DAY_MS,
    resetHeader: 'x-ratelimit-reset-ms',
  }));

  it('pauses, sends nothing while paused, resumes by itself after each reset and ends exact', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);

    const result = await rig.cli(['run', source, '--concurrency', String(CONCURRENCY)]);

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expectPausesKept(rig, 2 * CONCURRENCY);
    expectEachPauseLogged(result.stderr);
  });

  it('with --no-wait exits 4 at once with the rows queued, and a worker finishes the run after the reset', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);

    const result = await rig.cli(['run', source, '--no-wait', '--concurrency', String(CONCURRENCY)]);

    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/paused until .* on the seller's daily request limit/);
    const runId = runIdOf(result.stderr);
    const paused = await rig.status(runId);
    expect(paused.state).not.toBe('done');
    expect(paused.settled).toBeLessThan(ROWS);

    rig.spawn(['worker', '--concurrency', String(CONCURRENCY)]);
    const done = await runDone(rig, runId);

    expect(done.counts).toMatchObject({ created: ROWS, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
  });

  it('is finished exactly by two worker processes sharing the run', { timeout: 60_000 }, async () => {
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);
    const imported = await rig.cli(['import', source]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);

    rig.spawn(['worker', '--concurrency', String(CONCURRENCY)]);
    rig.spawn(['worker', '--concurrency', String(CONCURRENCY)]);
    const done = await runDone(rig, runId);

    expect(done.counts).toMatchObject({ created: ROWS, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    const bursts = refusalBursts(rig.sandbox.timedRequests());
    expect(bursts.length, 'pauses (runs of 429)').toBeGreaterThanOrEqual(2);
    // Each process may have up to --concurrency requests in flight when the 429 comes.
    for (const burst of bursts) expect(burst.refused).toBeLessThanOrEqual(2 * CONCURRENCY);
  });
});
