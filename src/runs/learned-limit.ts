import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';

/**
 * A seller's daily limit as its API showed it: the requests counted in the quota day before that
 * day's first 429 (issue 14). Used when no `--daily-budget` is given.
 */
export interface LearnedLimit {
  /** The quota day (its start, ms) whose first 429 taught it. */
  dayStart: number;
  /** Requests counted that day before the 429. */
  limit: number;
  /** When the 429 came (ms). */
  at: number;
}

/**
 * Which record to keep when a 429 teaches `fresh`: the first 429 of a day wins over every later one
 * of the same day (concurrent requests answered 429 after it were counted later, and would raise or
 * lower it at random); a later day's 429 replaces it, an earlier day's (a late answer) does not.
 */
export function keepLearned(stored: LearnedLimit | null, fresh: LearnedLimit): LearnedLimit {
  if (!stored || fresh.dayStart > stored.dayStart) return fresh;
  return stored;
}

// The same rule as keepLearned, in one step for every process of every machine.
const LEARN_SCRIPT = `
local stored = redis.call('GET', KEYS[1])
if stored then
  local ok, record = pcall(cjson.decode, stored)
  if ok and type(record) == 'table' and tonumber(record.dayStart) and tonumber(record.dayStart) >= tonumber(ARGV[2]) then
    return 0
  end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`;

/** Records what a 429 taught, by keepLearned's rule; true when it was kept. No expiry: a limit lasts. */
export async function learnLimit(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  fresh: LearnedLimit,
): Promise<boolean> {
  const kept = await redis.eval(
    LEARN_SCRIPT,
    1,
    keys.learnedLimit(sellerRef),
    JSON.stringify(fresh),
    String(fresh.dayStart),
  );
  return Number(kept) === 1;
}

/** The seller's learned limit, or null (none yet, or a record Redis should not hold). */
export async function readLearnedLimit(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
): Promise<LearnedLimit | null> {
  return parseLearned(await redis.get(keys.learnedLimit(sellerRef)));
}

export function parseLearned(text: string | null): LearnedLimit | null {
  if (!text) return null;
  try {
    const record = JSON.parse(text) as Partial<LearnedLimit>;
    const { dayStart, limit, at } = record;
    if (![dayStart, limit, at].every((n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0))
      return null;
    return record as LearnedLimit;
  } catch {
    return null;
  }
}
