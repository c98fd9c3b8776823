import { commandCalls, commandsBetween } from '../../src/redis/command-counts.js';
import { runCli } from '../sync/cli-run.js';
import { type BenchRedis, readsProcessed } from './private-redis.js';
import { countRedisWrites } from './redis-writes.js';

export const BENCH_KEY = 'sk_bench_goals';
export const BENCH_SELLER = 'bench-goals-seller';

/** The environment of an `import` child process against the bench's sandbox and private Redis. */
export function importEnv(baseUrl: string, redisUrl: string, prefix: string): NodeJS.ProcessEnv {
  return {
    SELLER_API_BASE_URL: baseUrl,
    SELLER_API_KEY: BENCH_KEY,
    REDIS_URL: redisUrl,
    CATALOG_SYNC_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    PATH: process.env.PATH,
  };
}

export interface MeasuredSync {
  seconds: number;
  /** Round trips: socket writes of this process to the bench Redis (redis-writes.ts). */
  roundTrips: number;
  /** Read events of the Redis server during the run (its other clients are the bench's own). */
  serverReads: number;
  /** INFO commandstats calls during the run, by command (the bench's own INFO calls left out). */
  commands: Map<string, number>;
  summary: string;
}

/**
 * One `catalog-sync run <path> --concurrency <c>` in this process (as bench/sync does), against the
 * sandbox at `baseUrl` and the bench's private Redis; throws unless it exits 0.
 */
export async function measuredSync(
  bench: BenchRedis,
  baseUrl: string,
  path: string,
  concurrency: number,
  /** More flags of `run`, e.g. `--incremental`. */
  flags: string[] = [],
): Promise<MeasuredSync> {
  const port = Number(new URL(bench.url).port);
  const before = await commandCalls(bench.redis);
  const readsBefore = await readsProcessed(bench.redis);
  const counter = countRedisWrites(port);
  let result: Awaited<ReturnType<typeof runCli>>;
  try {
    result = await runCli(['run', path, '--concurrency', String(concurrency), ...flags], {
      SELLER_API_BASE_URL: baseUrl,
      SELLER_API_KEY: BENCH_KEY,
      REDIS_URL: bench.url,
      CATALOG_SYNC_PREFIX: 'bench-goals',
      LOG_LEVEL: 'silent',
      PATH: process.env.PATH,
    });
  } finally {
    counter.stop();
  }
  const roundTrips = counter.writes();
  // Less the read event of the bench's own INFO call that ends the count.
  const serverReads = (await readsProcessed(bench.redis)) - readsBefore - 1;
  const after = await commandCalls(bench.redis);
  if (result.exitCode !== 0)
    throw new Error(`run exited ${result.exitCode}:\n${result.stdout}${result.stderr}`);
  // The bench's own INFO calls (commandstats before, stats twice) are not the run's.
  const commands = commandsBetween(before, after, 3);
  return { seconds: result.ms / 1000, roundTrips, serverReads, commands, summary: result.stdout };
}
