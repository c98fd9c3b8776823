import type { Redis } from 'ioredis';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * The plan line (issue 14) the run's list reader said, kept in the run's record: the worker that
 * reads the list may be another process's (a `worker`, or another `run` serving the seller), and the
 * `run` that created the run prints the line from here then (docs/running.md: every run prints its
 * plan before its first write, on its own output).
 */
const PLAN_LINE = 'planLine';

// Only on a record that is there: a run removed meanwhile must not come back as a hash without a TTL.
const KEEP_PLAN_LINE = luaScript(
  'keepPlanLine',
  1,
  `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('HSET', KEYS[1], '${PLAN_LINE}', ARGV[1]) end return 0`,
);

/** Keeps the run's plan line; said before the run's list is marked read, so before any write of it. */
export async function keepPlanLine(
  redis: Redis,
  keys: RedisKeys,
  runId: string,
  line: string,
): Promise<void> {
  await runScript(redis, KEEP_PLAN_LINE, keys.run(runId), line);
}

/** The plan line the run's list reader said, or null while none has (or none will: a dry run). */
export async function keptPlanLine(redis: Redis, keys: RedisKeys, runId: string): Promise<string | null> {
  return await redis.hget(keys.run(runId), PLAN_LINE);
}
