import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RedisKeys } from './keys.js';
import { packUnchangedOutcomes } from './outcome-rows.js';
import { lookalikeKeys, runningOnlyKeys } from './run-data-keys.js';
import type { RunRecord } from './run-record.js';

// `revert` sizes its read of the products (by id or by page) on how many the run listed: that count
// is kept in the record before the list goes (once: a run ended twice keeps the first count).
// KEYS[1] the run record, KEYS[2] its products; the rest are deleted. UNLINK: a million-field hash
// is freed in the background, not while Redis answers no one.
const DROP_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], 'productsListed') == 0 then
  redis.call('HSET', KEYS[1], 'productsListed', redis.call('HLEN', KEYS[2]))
end
for i = 2, #KEYS do redis.call('UNLINK', KEYS[i]) end
return 1
`;

/**
 * What a run keeps once it ended (done or cancelled, not held): what only a running run reads is
 * deleted and its unchanged outcomes are packed. Doing it again changes nothing.
 */
export async function keepOnlyWhatEndedRunsRead(
  redis: Redis,
  keys: RedisKeys,
  run: RunRecord,
): Promise<void> {
  await dropRunningData(redis, keys, run);
  await packUnchangedOutcomes(redis, keys, run.id, run.total);
}

/** Deletes what only a running run needs; `run` has ended (done or cancelled, not held). */
async function dropRunningData(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<void> {
  const drop = runningOnlyKeys(keys, run.id);
  if (run.lookalikeGuarded) drop.push(...lookalikeKeys(keys, run.id));
  if (!(await sourceKeysStillAsked(redis, keys, run)))
    drop.push(keys.sourceKeys(run.id), keys.unsoldKeys(run.id), keys.writtenKeys(run.id));
  await redis.eval(DROP_SCRIPT, 1 + drop.length, keys.run(run.id), ...drop);
}

/** How many products the run listed (revert-run.ts): the count kept at its end, else its list. */
export async function productsListed(redis: Redis, keys: RedisKeys, id: string): Promise<number> {
  const kept = await redis.hget(keys.run(id), 'productsListed');
  return kept !== null ? Number(kept) : redis.hlen(keys.products(id));
}

/**
 * True while an earlier run of the seller may still be approved (held, or not ended yet and so
 * possibly held): its `approve` asks this run's source and written keys whether a product came back
 * or was written since. A dry run's are never asked.
 */
async function sourceKeysStillAsked(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<boolean> {
  if (run.dryRun) return false;
  // The seller's runs only (issue 13: every seller's, read at each run's end, cost a fleet of
  // thousands of sellers a read of thousands of runs per run). A run's record expires
  // RUN_TTL_SECONDS after it was created: older entries are gone.
  const oldest = run.createdAt - RUN_TTL_SECONDS * 1000;
  const earlier = await redis.zrangebyscore(keys.sellerRuns(run.sellerRef), oldest, `(${run.createdAt}`);
  for (let start = 0; start < earlier.length; start += 100) {
    const batch = earlier.slice(start, start + 100);
    const states = await Promise.all(batch.map((id) => redis.hget(keys.run(id), 'state')));
    if (states.some((state) => state && state !== 'done' && state !== 'cancelled')) return true;
  }
  return false;
}
