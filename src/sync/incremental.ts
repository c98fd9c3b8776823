import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';
import { otherFieldRunSince } from './record-writers.js';

/**
 * `--incremental` (issue 9): a nightly re-run that compares each row with what this tool last sent,
 * without reading the seller's products, so an unchanged catalog costs no request and k changed rows
 * cost k. It relies on the tool's record only while that record is complete and fresh: an earlier
 * incremental run read every product, recorded each one in the id map of its match field, and ended
 * (not early) less than `--full-read-after` ago, no run matching by another field wrote since
 * (its creates are in its own field's id map only), and no run whose read is not recorded (one
 * without `--incremental`) found a product since under a key the id map lacks. Otherwise the run
 * reads the products as any run does, and records them for the next; its summary says why. What it
 * cannot see: a product changed on the marketplace since the last full read (drift), and products
 * missing from the source; the next full read repairs and reports them.
 */

/** Run record fields: the list read was skipped; when the run's list read began. */
export const LIST_SKIPPED = 'listSkipped';
const FULL_READ_AT = 'fullReadAt';
/** Run record field: the run's list read found a product under a key the seller's id map lacks. */
const LISTED_UNRECORDED = 'listedUnrecorded';
/**
 * Run record field: the approval under way read the held products again (guards/approval-read.ts),
 * so its rows diff against them, not against the record, though the run's list read was skipped.
 */
export const APPROVAL_READ = 'approvalRead';
/** Run record field: the summary's `incremental` line, whether the run read the products and why. */
export const INCREMENTAL_READ = 'incrementalRead';

/**
 * The record (keys.fullRead), as JSON: a full read by a match field, the mark of a run matching by
 * another field that wrote since, or the mark of a run without `--incremental` whose list read found
 * a product the record lacks (made on the marketplace since: an `--incremental` run relying on the
 * record would create it again). A bare number is a record from before match fields were kept apart.
 */
type StoredRecord =
  | { at: number; matchBy: string }
  | { at: number; voidedBy: string }
  | { at: number; lacking: true };

/** Whether a run may diff against the tool's record alone, and its summary line (null: not incremental). */
export interface RecordVerdict {
  rely: boolean;
  line: string | null;
}

function parseRecord(stored: string): StoredRecord | 'legacy' | null {
  if (/^\d+$/.test(stored)) return 'legacy';
  try {
    const value = JSON.parse(stored) as Record<string, unknown>;
    if (typeof value.at !== 'number') return null;
    if (typeof value.matchBy === 'string') return { at: value.at, matchBy: value.matchBy };
    if (typeof value.voidedBy === 'string') return { at: value.at, voidedBy: value.voidedBy };
    if (value.lacking === true) return { at: value.at, lacking: true };
  } catch {}
  return null;
}

/** `2026-11-27 02:00 UTC`. */
function instant(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `7d`, `12h`, `30m`: as `--full-read-after` is written. */
export function durationText(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * Decides from the stored record alone (pure). `confirming`: field names the options give must be
 * found on a listed product (listed-fields.ts), so the products are read whatever the record says.
 */
export function recordVerdict(
  run: Pick<RunRecord, 'incremental' | 'fullReadAfterMs' | 'matchBy'>,
  stored: string | null,
  now: number,
  confirming = false,
): RecordVerdict {
  if (!run.incremental || run.fullReadAfterMs === undefined) return { rely: false, line: null };
  const read = (why: string) => ({ rely: false, line: `products read: ${why}` });
  if (confirming) return read('field names the options give are looked for on them');
  const record = stored === null ? null : parseRecord(stored);
  if (record === null) return read('no earlier --incremental run read them and ended');
  if (record === 'legacy')
    return read('the record of the last full read does not say its match field (an earlier version made it)');
  if ('voidedBy' in record)
    return read(
      `a run matching by ${record.voidedBy} wrote since the last full read (${instant(record.at)})`,
    );
  if ('lacking' in record)
    return read(
      `a run without --incremental (${instant(record.at)}) found products this tool's record lacks`,
    );
  if (record.matchBy !== run.matchBy)
    return read(`the last full read matched by ${record.matchBy}, this run by ${run.matchBy}`);
  const after = durationText(run.fullReadAfterMs);
  if (now - record.at > run.fullReadAfterMs)
    return read(`the last full read (${instant(record.at)}) is older than --full-read-after ${after}`);
  return {
    rely: true,
    line: `no product read: relied on this tool's record (full read ${instant(record.at)}, by ${record.matchBy}; read again after --full-read-after ${after})`,
  };
}

/** The verdict for the run (decided once, under the snapshot lock). */
export async function mayRelyOnRecord(
  redis: Redis,
  keys: RedisKeys,
  run: RunRecord,
  now: number,
  confirming = false,
): Promise<RecordVerdict> {
  if (!run.incremental) return { rely: false, line: null };
  return recordVerdict(run, await redis.get(keys.fullRead(run.sellerRef)), now, confirming);
}

export async function markApprovalRead(redis: Redis, keys: RedisKeys, runId: string): Promise<void> {
  await redis.hset(keys.run(runId), APPROVAL_READ, 1);
}

/** Keeps the verdict on the run: its summary and `status` say it. */
export async function noteVerdict(redis: Redis, keys: RedisKeys, runId: string, verdict: RecordVerdict) {
  if (verdict.line === null) return;
  await redis.hset(keys.run(runId), {
    [INCREMENTAL_READ]: verdict.line,
    ...(verdict.rely ? { [LIST_SKIPPED]: 1 } : {}),
  });
}

/**
 * A run that may write, matching by another field than the record's, makes it incomplete: what it
 * creates is recorded in its own field's id map only. Marked before its first write.
 */
export async function voidRecordOfOtherField(redis: Redis, keys: RedisKeys, run: RunRecord, now: number) {
  if (run.dryRun) return;
  const stored = await redis.get(keys.fullRead(run.sellerRef));
  const record = stored === null ? null : parseRecord(stored);
  if (record === null || record === 'legacy' || !('matchBy' in record) || record.matchBy === run.matchBy)
    return;
  await setIfUnchanged(redis, keys.fullRead(run.sellerRef), stored as string, {
    at: now,
    voidedBy: run.matchBy,
  });
}

/**
 * Notes that the run read every product, from `startedAt` on: an incremental run's read counts as the
 * record once the run ends; any other run's tells which record its read is newer than.
 */
export async function noteFullRead(redis: Redis, keys: RedisKeys, runId: string, startedAt: number) {
  await redis.hset(keys.run(runId), FULL_READ_AT, startedAt);
}

/**
 * Called when a run ends with every row settled: an incremental run's full read becomes the record
 * of its match field. Set first, then voided again when a run of the seller matching by another
 * field may have written after that read began: that run, begun later, voids it itself.
 */
export async function recordFullRead(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<void> {
  if (!run.incremental || run.dryRun || run.aborted) return;
  const at = await redis.hget(keys.run(run.id), FULL_READ_AT);
  if (at === null) return;
  const record = JSON.stringify({ at: Number(at), matchBy: run.matchBy });
  await redis.set(keys.fullRead(run.sellerRef), record);
  const other = await otherFieldRunSince(redis, keys, run, Number(at));
  if (other !== null)
    await setIfUnchanged(redis, keys.fullRead(run.sellerRef), record, { at: Number(at), voidedBy: other });
}

/**
 * Notes that the run's list read found a product under a key the seller's id map lacks (a row's key,
 * or a product no row touched): the record an `--incremental` run relies on does not hold it.
 */
export async function noteUnrecorded(redis: Redis, keys: RedisKeys, runId: string): Promise<void> {
  await redis.hset(keys.run(runId), LISTED_UNRECORDED, 1);
}

/**
 * Called when a run ends: a read that found products the record lacks, and is not itself recorded (a
 * run without `--incremental`, or one that did not settle every row), marks the record of its match
 * field as lacking, so the next `--incremental` run reads the products (and records them) rather
 * than creating them again. A record made by a full read begun after this read holds them already.
 */
export async function voidRecordLacking(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<void> {
  const [at, unrecorded] = await redis.hmget(keys.run(run.id), FULL_READ_AT, LISTED_UNRECORDED);
  if (at === null || unrecorded === null) return;
  const stored = await redis.get(keys.fullRead(run.sellerRef));
  const record = stored === null ? null : parseRecord(stored);
  if (record === null || record === 'legacy' || !('matchBy' in record) || record.matchBy !== run.matchBy)
    return;
  if (record.at >= Number(at)) return;
  await setIfUnchanged(redis, keys.fullRead(run.sellerRef), stored as string, {
    at: Number(at),
    lacking: true,
  });
}

// Only over the value read: a newer record (another run's full read) is not voided by an older look.
const SET_IF_UNCHANGED = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], ARGV[2]) end return 0`;

async function setIfUnchanged(redis: Redis, key: string, was: string, value: StoredRecord): Promise<void> {
  await redis.eval(SET_IF_UNCHANGED, 1, key, was, JSON.stringify(value));
}
