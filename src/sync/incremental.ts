import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';

/**
 * `--incremental` (issue 9): a nightly re-run that compares each row with what this tool last sent,
 * without reading the seller's products, so an unchanged catalog costs no request and k changed rows
 * cost k. It relies on the tool's record only while that record is complete and fresh: an earlier
 * incremental run read every product, recorded each one in the id map, and ended (not early) less
 * than `--full-read-after` ago. Otherwise the run reads the products as any run does, and records
 * them for the next. What it cannot see: a product changed on the marketplace since the last full
 * read (drift), and products missing from the source; the next full read repairs and reports them.
 */

/** Run record fields: the list read was skipped; when the full read of an incremental run began. */
export const LIST_SKIPPED = 'listSkipped';
const FULL_READ_AT = 'fullReadAt';
/**
 * Run record field: the approval under way read the held products again (guards/approval-read.ts),
 * so its rows diff against them, not against the record, though the run's list read was skipped.
 */
export const APPROVAL_READ = 'approvalRead';

/** True when the run may diff against the tool's record alone (decided once, under the snapshot lock). */
export async function mayRelyOnRecord(
  redis: Redis,
  keys: RedisKeys,
  run: RunRecord,
  now: number,
): Promise<boolean> {
  if (!run.incremental || run.fullReadAfterMs === undefined) return false;
  const at = await redis.get(keys.fullRead(run.sellerRef));
  return at !== null && now - Number(at) <= run.fullReadAfterMs;
}

export async function markApprovalRead(redis: Redis, keys: RedisKeys, runId: string): Promise<void> {
  await redis.hset(keys.run(runId), APPROVAL_READ, 1);
}

export async function markListSkipped(redis: Redis, keys: RedisKeys, runId: string): Promise<void> {
  await redis.hset(keys.run(runId), LIST_SKIPPED, 1);
}

/** Notes that an incremental run read every product, from `startedAt` on; it counts once the run ends. */
export async function noteFullRead(redis: Redis, keys: RedisKeys, runId: string, startedAt: number) {
  await redis.hset(keys.run(runId), FULL_READ_AT, startedAt);
}

/** Called when a run ends with every row settled: an incremental run's full read becomes the record. */
export async function recordFullRead(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<void> {
  if (!run.incremental || run.dryRun || run.aborted) return;
  const at = await redis.hget(keys.run(run.id), FULL_READ_AT);
  if (at !== null) await redis.set(keys.fullRead(run.sellerRef), at);
}
