import type { Redis } from 'ioredis';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import { LIST_NEVER_READ } from '../runs/run-record.js';
import { SNAPSHOT_FAILED } from '../sync/snapshot.js';

// A run's end waits for its list read (ready or failed): the `missing` lines and `--missing` need it,
// and the first chunk of the run makes it. A run every chunk of which Redis lost before one read the
// list (lost-chunks.ts) would wait for ever: no chunk is left to read it. The look that finds no job
// of the run left notes so here, and the run ends without the list (RunStore.claimFinalisation), its
// `--missing` not applied and said why (missing/verdict.ts).

/** Why such a run's `--missing` was not applied: said in its summary, status and `ended`. */
export const LIST_NEVER_READ_TEXT =
  "the seller's products were never read: every chunk of the run was lost from Redis before one read them";

/**
 * Notes it only while the list is neither ready nor failed, in one step: a worker whose job vanished
 * under it may still finish a read meanwhile, and a list read is never said unread.
 */
const MARK = luaScript(
  'markListNeverRead',
  1,
  `
local ready, failed = unpack(redis.call('HMGET', KEYS[1], 'snapshotReady', ARGV[1]))
if ready == '1' or failed then return 0 end
return redis.call('HSETNX', KEYS[1], ARGV[2], ARGV[3])
`,
);

/** Notes the run's list as never read, unless it was read (or failed). True when it noted it now. */
export async function markListNeverRead(redis: Redis, keys: RedisKeys, runId: string): Promise<boolean> {
  const noted = await runScript(
    redis,
    MARK,
    keys.run(runId),
    SNAPSHOT_FAILED,
    LIST_NEVER_READ,
    LIST_NEVER_READ_TEXT,
  );
  return noted === 1;
}
