import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { eventually, type FailureRig, runDone, SELLER_A, sleep, useFailureRig } from './support/rig.js';

// 120 rows and one list read at 40 requests a day: the run crosses at least two resets.
const ROWS = 120;
const DAILY_LIMIT = 40;
const DAY_MS = 4000;
const CONCURRENCY = 4;

/**
 * Finds a pause with room to observe it (at least 1.5 s left), lets the answers already in flight
 * land, then reads the sandbox's request count twice, 800 ms apart, both inside the pause.
 */
async function requestsDuringAPause(rig: FailureRig): Promise<{ first: number; second: number }> {
  const until = await eventually('a daily-limit pause with 1.5 s left', async () => {
    const status = await rig.status().catch(() => undefined);
    const pausedUntil = status?.seller.pausedUntil ?? null;
    return pausedUntil !== null && pausedUntil - Date.now() > 1500 ? pausedUntil : undefined;
  });
  await sleep(300);
  const first = rig.sandbox.stats().total;
  await sleep(800);
  const second = rig.sandbox.stats().total;
  expect(Date.now(), 'both samples fall inside the pause').toBeLessThan(until);
  return { first, second };
}

/** The 429s in runs of consecutive refusals: one run per pause. */
function refusalBursts(requests: LoggedRequest[]): number[] {
  const bursts: number[] = [];
  let current = 0;
  for (const request of requests) {
    if (request.status === 429) current++;
    else if (current > 0) {
      bursts.push(current);
      current = 0;
    }
  }
  if (current > 0) bursts.push(current);
  return bursts;
}

describe(`a run that crosses the daily limit (${ROWS} rows, ${DAILY_LIMIT} requests a day, ${DAY_MS / 1000}-second days)`, () => {
  const rig = useFailureRig(() => ({ dailyLimit: DAILY_LIMIT, dayLengthMs: DAY_MS }));

  it('pauses, sends nothing while paused, resumes by itself after each reset and ends exact', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(ROWS);
    const source = await rig.csv('catalog.csv', rows);

    const running = rig.cli(['run', source, '--concurrency', String(CONCURRENCY)]);
    const pause = await requestsDuringAPause(rig);
    const result = await running;

    expect(pause.second, 'requests sent while paused').toBe(pause.first);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`rows      ${ROWS}: ${ROWS} created, 0 updated`);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    const bursts = refusalBursts(rig.sandbox.requests());
    expect(bursts.length, 'pauses (runs of 429)').toBeGreaterThanOrEqual(2);
    for (const refused of bursts) expect(refused).toBeLessThanOrEqual(2 * CONCURRENCY);
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
    const bursts = refusalBursts(rig.sandbox.requests());
    expect(bursts.length, 'pauses (runs of 429)').toBeGreaterThanOrEqual(2);
    // Each process may have up to --concurrency requests in flight when the 429 comes.
    for (const refused of bursts) expect(refused).toBeLessThanOrEqual(2 * CONCURRENCY);
  });
});
