import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';

/**
 * Run record field: the latest time (ms) an approval of the run settled rows, each after its write
 * (guards/held-rows.ts): the run wrote until then. A round that its last row ends makes it the run's
 * `finishedAt` too; a record an earlier version approved kept the hold's `finishedAt`, and says it here only.
 */
export const APPROVAL_WROTE_AT = 'approvalWroteAt';

/** States in which a run may still write: `held` waits for `approve`, which sends its writes. */
const MAY_WRITE = new Set(['queued', 'running', 'held']);

/**
 * The match field of a run of the seller, other than `run`, that matches by another field and may
 * have written since `since` (ms): not a dry run, and still able to write or ended after it. null:
 * none. Read from the seller's runs (keys.sellerRuns: every run of the last 7 days, which covers any
 * run still able to write). An `--incremental` full read begun at `since` does not hold what such a
 * run created: it is recorded in its own field's id map only (match-space.ts).
 * A held run approved since may have written after its `finishedAt` (the hold's, in a record an
 * earlier version approved): when its approval last wrote counts too (APPROVAL_WROTE_AT).
 */
export async function otherFieldRunSince(
  redis: Redis,
  keys: RedisKeys,
  run: Pick<RunRecord, 'id' | 'sellerRef' | 'matchBy'>,
  since: number,
): Promise<string | null> {
  const ids = (await redis.zrange(keys.sellerRuns(run.sellerRef), 0, -1)).filter((id) => id !== run.id);
  if (ids.length === 0) return null;
  const reads = redis.pipeline();
  for (const id of ids) reads.hmget(keys.run(id), 'spec', 'state', 'finishedAt', APPROVAL_WROTE_AT);
  for (const [, fields] of (await reads.exec()) ?? []) {
    const [spec, state, finishedAt, approvalWrote] = (fields ?? []) as (string | null)[];
    const field = fieldOf(spec ?? null);
    if (field === null || field === run.matchBy) continue;
    const wroteUntil = Math.max(Number(finishedAt ?? 0), Number(approvalWrote ?? 0));
    // The same millisecond as the read's start counts: a write then may not be in it.
    if (MAY_WRITE.has(state ?? '') || wroteUntil >= since) return field;
  }
  return null;
}

/** The match field of a run that may write (not a dry run), from its stored spec; Redis is not trusted. */
export function fieldOf(spec: string | null): string | null {
  if (spec === null) return null;
  try {
    const { matchBy, dryRun } = JSON.parse(spec) as { matchBy?: unknown; dryRun?: unknown };
    return typeof matchBy === 'string' && matchBy !== '' && dryRun !== true ? matchBy : null;
  } catch {
    return null;
  }
}
