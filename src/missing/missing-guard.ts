import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { LIST_SKIPPED } from '../sync/incremental.js';
import { matchSpaceOf } from '../sync/match-space.js';
import { SNAPSHOT_FAILED } from '../sync/snapshot.js';
import { type MissingFigures, scanMissing } from './missing-scan.js';
import { keylessText, partialRead } from './verdict.js';

interface GuardDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/** Run record field: the run plans first for `--max-missing` (RunRecord.missingGuarded). */
const MISSING_GUARDED = 'missingGuarded';

/** Whether the run may be planned for `--max-missing` once it has read the list (markMissingGuarded). */
export function mayGuardMissing(spec: Pick<RunRecord, 'missing' | 'dryRun' | 'only'>): boolean {
  return Boolean(spec.missing) && !spec.dryRun && !spec.only;
}

/**
 * `--max-missing` holds the whole run (CONTRACT), so a `--missing` run that may deactivate plans
 * every row before its first write, as a guarded run does, and the guards' verdict weighs its
 * deactivations (weighMissing). Decided with the run's list read, once the run knows whether it read
 * the list: a run that deactivates nothing anyway (a dry run, `--only`, an `--incremental` run that
 * relied on its record, one refused: partialRead) needs no guard and writes as it goes. Called by the
 * one reader of the list, before the snapshot is marked ready: no chunk of the run writes before it.
 */
export async function markMissingGuarded(
  deps: GuardDeps,
  runId: string,
  spec: Parameters<typeof mayGuardMissing>[0],
): Promise<void> {
  // Most runs: decided from the spec the chunk holds, with no command.
  if (!mayGuardMissing(spec)) return;
  const run = await deps.runs.get(runId);
  // An approval reads the list anew (its own load): the run was planned, or not, by its own read.
  if (!run || !mayGuardMissing(run) || run.missingGuarded || run.approvedAt !== undefined) return;
  const [listFailed, listSkipped] = await deps.redis.hmget(
    deps.keys.run(runId),
    SNAPSHOT_FAILED,
    LIST_SKIPPED,
  );
  if (partialRead(run, Boolean(listFailed), listSkipped === '1') !== null) return;
  await deps.redis.hset(deps.keys.run(runId), MISSING_GUARDED, 1);
}

/**
 * For the guards' verdict (guards/decide.ts), once every row is planned and before anything is
 * sent: the deactivations the run's end would find due, and the managed products the run's read
 * listed, counted by the missing scan itself (recording nothing), with why they may not go without
 * `approve` whatever their number (rows with no key: keylessText). Null when the run deactivates
 * nothing (not guarded for it, or partialRead says so now: the source broke, the run was
 * cancelled): then `--max-missing` has nothing to weigh.
 */
export async function weighMissing(
  deps: GuardDeps,
  run: RunRecord,
): Promise<(MissingFigures & { keyless: string | null }) | null> {
  if (!run.missing || !run.missingGuarded || run.dryRun) return null;
  const [listFailed, listSkipped] = await deps.redis.hmget(
    deps.keys.run(run.id),
    SNAPSHOT_FAILED,
    LIST_SKIPPED,
  );
  if (partialRead(run, Boolean(listFailed), listSkipped === '1') !== null) return null;
  // A nightly run whose source still holds every listed product: nothing is due, and no limit is
  // exceeded by none, whatever the managed count; the count below looks up every listed product.
  if (!(await anyListedUntouched(deps, run.id))) return { due: 0, managed: 0, keyless: null };
  const space = await matchSpaceOf(deps.redis, deps.keys, run.sellerRef, run.matchBy, run.id);
  const figures = await scanMissing(deps, run.id, run.sellerRef, run.missing, space, run.matchBy, true);
  return { ...figures, keyless: keylessText(run, figures.due) };
}

/** Whether a product the run's read listed was touched by no row of it: two commands a page of 500. */
async function anyListedUntouched(deps: GuardDeps, runId: string): Promise<boolean> {
  let cursor = '0';
  do {
    const [next, flat] = await deps.redis.hscan(deps.keys.products(runId), cursor, 'COUNT', 500);
    cursor = next;
    const ids = flat.filter((_, i) => i % 2 === 0);
    if (ids.length === 0) continue;
    const touched = await deps.redis.smismember(deps.keys.touched(runId), ...ids);
    if (touched.includes(0)) return true;
  } while (cursor !== '0');
  return false;
}
