import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spentDays, startSandbox, type TimedRequest } from '../../src/sandbox/index.js';
import { generateRows, writeCatalogCsv } from '../sync/catalog.js';
import { runCli } from '../sync/cli-run.js';
import { BENCH_KEY, BENCH_SELLER } from './measured-sync.js';
import { startBenchRedis } from './private-redis.js';
import type { GoalReport } from './result.js';
import { scaled } from './scale.js';

const CONCURRENCY = 8;
const DAILY_LIMIT = 100;
/** A "day" of three seconds, aligned to the epoch as the sandbox's days are; its 429 says Retry-After in seconds. */
const DAY_MS = 3000;

interface Crossing {
  refused: number;
  /** From the reset to the first request the day after: how late the tool starts again. */
  lateMs: number | null;
}

/** The days whose limit the run spent, in order, and how late the first request after each reset came. */
function crossings(requests: TimedRequest[]): Crossing[] {
  return spentDays(requests, DAY_MS, DAILY_LIMIT).map(({ day, refused }) => {
    const resetAt = (day + 1) * DAY_MS;
    const next = requests.find((request) => request.at >= resetAt);
    return { refused, lateMs: next ? next.at - resetAt : null };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/**
 * Issue 31's daily-limit rows, one measurement (bounds.ts takes the median of three): `run` of 400
 * rows at C = 8 in this process against a sandbox here (20 ms per answer) whose key may send 100
 * requests a "day" of 3 s, so the run spends the limit at least three times. From the sandbox's
 * request log: the 429 answers per spent day, and how long after each reset the next request came
 * (the median of the run's crossings but the last). Two runs: the sandbox's answers say how many
 * requests are left (its default), then say nothing of the limit, which the tool must learn at the
 * first crossing. Redis private on port 6552.
 */
export async function measureDailyLimit(): Promise<GoalReport> {
  const shown = await crossingsOf(true);
  const unshown = await crossingsOf(false);
  // Without the headers the first crossing cannot know the limit (the spec shows none): the figure
  // is of the crossings after it, once the limit is learned.
  const learned = unshown.slice(1);
  const refused = (crossed: Crossing[]) => crossed.reduce((sum, c) => sum + c.refused, 0) / crossed.length;
  const late = shown.flatMap((c) => (c.lateMs === null ? [] : [c.lateMs / 1000]));
  const result = (goal: string, figure: string, key: string, value: number) => ({
    goal,
    figure,
    bound: '',
    pass: null,
    measured: { key, value },
  });
  return {
    results: [
      result(
        '429 answers per daily-limit crossing',
        `${refused(shown).toFixed(2)} (${shown.length} crossings)`,
        'refused-per-crossing',
        refused(shown),
      ),
      result(
        '429 answers per crossing, no rate headers, once learned',
        `${refused(learned).toFixed(2)} (${learned.length} crossings after the first; the first ${unshown[0]?.refused})`,
        'refused-per-learned-crossing',
        learned.length > 0 ? refused(learned) : Number.NaN,
      ),
      result(
        'first request after the reset',
        `${median(late).toFixed(2)} s (median of ${late.length})`,
        'first-request-after-reset-s',
        median(late),
      ),
    ],
  };
}

/**
 * One run against the limit; `limitHeaders`: the sandbox's answers say how many requests are left
 * (X-RateLimit-Remaining, its default), or say nothing of the limit, as the spec allows.
 */
async function crossingsOf(limitHeaders: boolean): Promise<Crossing[]> {
  const rows = scaled(400, 250);
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-daily-'));
  const bench = await startBenchRedis(6552);
  const sandbox = await startSandbox({
    keys: [{ key: BENCH_KEY, seller: BENCH_SELLER }],
    dailyLimit: DAILY_LIMIT,
    dayLengthMs: DAY_MS,
    latencyMs: 20,
    limitHeaders,
  });
  try {
    const path = join(dir, 'catalog.csv');
    await writeCatalogCsv(path, generateRows(rows));
    const result = await runCli(['run', path, '--concurrency', String(CONCURRENCY)], {
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: BENCH_KEY,
      REDIS_URL: bench.url,
      CATALOG_SYNC_PREFIX: 'bench-goals',
      LOG_LEVEL: 'silent',
      PATH: process.env.PATH,
    });
    if (result.exitCode !== 0)
      throw new Error(`run exited ${result.exitCode}:\n${result.stdout}${result.stderr}`);
    const crossed = crossings(sandbox.timedRequests());
    if (crossed.length === 0) throw new Error('the run never spent the daily limit');
    return crossed;
  } finally {
    await sandbox.close();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
