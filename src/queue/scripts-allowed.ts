import type { Redis } from 'ioredis';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/** Reads one of the seller's keys from inside a script: the least a run's first scripted step does. */
const SCRIPTS_ALLOWED = luaScript('scriptsAllowed', 1, "return redis.call('EXISTS', KEYS[1])");

/**
 * Proves that Redis lets this user run the tool's scripts on the seller's keys before a run is
 * created: every step that queues a run's rows or ends it is a Lua script (BullMQ's and ours). A user
 * refused them (NOPERM, e.g. `-@scripting`) would otherwise leave a run record it can neither queue
 * nor end, and a claim on its source it cannot give back: `status` showed it waiting for ever, and
 * the next `run` of the source watched or stepped around it. Refused here, the command ends with its
 * one line (permission-refusal.ts) and nothing is left behind. One round trip (EVALSHA; EVAL once
 * per Redis restart), in the seller's slot on a cluster.
 */
export async function assertScriptsAllowed(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<void> {
  await runScript(redis, SCRIPTS_ALLOWED, keys.sellerRuns(sellerRef));
}
