import type { Redis } from 'ioredis';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

// KEYS: the source's active-run key. ARGV: the run giving it up. Deleted only while it holds it.
const RELEASE_IF_HELD = luaScript(
  'releaseSourceIfHeld',
  1,
  "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
);

/**
 * Gives up a source's claim (the run an import of that source attaches to), only while `runId`
 * still holds it: a newer import may hold it by now (it ended this run as dead, or this one ended).
 */
export async function releaseSource(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  sourceId: string,
  runId: string,
): Promise<void> {
  await runScript(redis, RELEASE_IF_HELD, keys.activeRun(sellerRef, sourceId), runId);
}
