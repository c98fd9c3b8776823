import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { LogView, RecentRate } from '../../src/cli/progress.js';
import { createLogger } from '../../src/logger.js';
import type { RunRecord } from '../../src/runs/run-record.js';

describe('RecentRate, the rows/s behind the progress bar', () => {
  it('is 0 until half a second of samples exists', () => {
    const rate = new RecentRate();
    expect(rate.add(0, 0)).toBe(0);
    expect(rate.add(400, 40)).toBe(0);
  });

  it('measures rows per second over the samples it holds', () => {
    const rate = new RecentRate();
    rate.add(0, 0);
    expect(rate.add(2000, 100)).toBe(50);
  });

  it('forgets samples older than its window, so a long pause stops counting', () => {
    const rate = new RecentRate(10_000);
    rate.add(0, 0);
    rate.add(5_000, 500);
    rate.add(20_000, 500);
    // Only the last 10 s: 500 → 500 while paused.
    expect(rate.add(21_000, 500)).toBe(0);
  });
});

describe('LogView, the progress of a run without a terminal (cron, a log file)', () => {
  const run = (settled: number, requests: number, total = 100) =>
    ({ id: 'r1', settled, total, requests }) as unknown as RunRecord;
  const lines = () => {
    const written: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    return { written, logger: createLogger('info', stream, 'json') };
  };

  it('logs progress at most every 5 s, and not again while nothing moves (a daily-limit wait)', async () => {
    const { written, logger } = lines();
    const clock = { now: 100_000 };
    const view = new LogView(logger, () => clock.now);
    view.update(run(10, 11));
    clock.now = 101_000;
    view.update(run(20, 21));
    // A run paused for hours: the same counts every 5 s.
    for (let i = 1; i <= 100; i++) {
      clock.now = 100_000 + i * 5_000;
      view.update(run(20, 21));
    }
    clock.now = 700_000;
    view.update(run(30, 31));
    await new Promise((resolve) => setImmediate(resolve));
    const settled = written.map((line) => JSON.parse(line).settled);
    expect(settled).toEqual([10, 20, 30]);
  });

  it('logs no progress line before the run has anything to count (its first look, at the start)', async () => {
    const { written, logger } = lines();
    const clock = { now: 100_000 };
    const view = new LogView(logger, () => clock.now);
    view.update(run(0, 0, 0));
    clock.now = 106_000;
    view.update(run(0, 0, 50));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written.map((line) => JSON.parse(line).total)).toEqual([50]);
  });

  it('says a pause of hours once an hour while it lasts, not once a minute (a cron mail of 22 h)', async () => {
    const { written, logger } = lines();
    const start = Date.UTC(2025, 0, 1, 2, 30, 0);
    const until = Date.UTC(2025, 0, 2, 0, 0, 0);
    const view = new LogView(logger);
    // Looked at every 5 s, as run's wait loop does, for the whole 21 h 30 min.
    for (let at = start; at < until; at += 5_000) view.paused(until, at);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toHaveLength(22);
  });

  it("logs each pause as it begins, with its own end and wait: a second pause within a minute is not the first's line", async () => {
    // A day scaled to a minute (`sandbox --day-length 60s`): the second pause begins 35 s after the first.
    const { written, logger } = lines();
    const view = new LogView(logger);
    const first = Date.UTC(2025, 0, 1, 8, 25, 30);
    view.paused(first, first - 29_700);
    // The same pause, looked at again and again while it lasts: said once.
    for (let i = 1; i <= 100; i++) view.paused(first, first - 29_700 + i * 250);
    const second = Date.UTC(2025, 0, 1, 8, 26, 27);
    view.paused(second, second - 51_900);
    await new Promise((resolve) => setImmediate(resolve));
    const said = written.map((line) => JSON.parse(line) as { msg: string; until: string });
    expect(said.map((line) => line.msg)).toEqual([
      'paused until 08:25 UTC (in 29.7 s)',
      'paused until 08:26 UTC (in 51.9 s)',
    ]);
    expect(said[1]?.until).toBe(new Date(second).toISOString());
  });
});
