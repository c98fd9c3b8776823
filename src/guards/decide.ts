import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DEFAULT_CHUNK_SIZE } from '../defaults.js';
import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import { DEFAULT_FIRST, WRITE_PASSES, writePass } from '../plan/first-order.js';
import { type PlannedWrite, PlanStore } from '../plan/plan-store.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { addChunk } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { LIST_SKIPPED } from '../sync/incremental.js';
import { productsRecordedByField } from '../sync/match-space.js';
import { LOOKALIKE_ROWS, lookalikesOf, lookalikeText } from './lookalike-creates.js';
import { isPlanned, type PlanFigures, rowGuardReason, wholeRunRefusal } from './verdict.js';

/** The run-record fields of the decision: the verdict (once), and that it was carried out. */
const VERDICT = 'guardVerdict';
const CARRIED_OUT = 'guardsCarriedOut';

interface DecideDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * The deactivations `--missing` would send at the run's end, for `--max-missing`, or null when it
 * deactivates nothing (missing/missing-guard.ts weighMissing: `missing/` sits beside this layer and
 * uses it, so its caller hands it in).
 */
export type WeighMissing = (run: RunRecord) => Promise<PlanFigures['missing']>;

/**
 * The whole-run guards' reason when they held the run, '' when they passed or were not decided
 * (yet): the run's end holds its deactivations with it (queue/finalise.ts).
 */
export async function wholeRunVerdict(redis: Redis, keys: RedisKeys, runId: string): Promise<string> {
  return JSON.parse((await redis.hget(keys.run(runId), VERDICT)) ?? '""') as string;
}

/**
 * Whether the decision on the run's planned writes began (its verdict is stored): from then on its
 * `apply` jobs, not its plan, hold the rows the guards let through.
 */
export async function guardsDecided(redis: Redis, keys: RedisKeys, runId: string): Promise<boolean> {
  return (await redis.hexists(keys.run(runId), VERDICT)) === 1;
}

/**
 * Once every row of a planned run (guarded, over the day's quota, or with `--missing`) is planned
 * (or settled), decides its guards, once: when a whole-run guard trips, every planned write settles `held`; else
 * the rows a row guard held settle `held` and the others go to the queue as `apply` jobs. Safe to
 * call from any chunk, any number of times, and again after a crash half way: the verdict is stored
 * before anything is done, outcomes settle once, and apply jobs have the same ids each time (a run
 * is planned first or not before its first row is planned). Nothing is sent here.
 */
export async function decideGuardsIfPlanned(
  deps: DecideDeps,
  runId: string,
  queue: Queue<ChunkJobData>,
  weighMissing: WeighMissing,
): Promise<void> {
  const run = await deps.runs.get(runId);
  if (!run || !isPlanned(run) || !run.produced || run.state === 'done' || run.state === 'held') return;
  // A cancelled run sends nothing more: its planned writes are not carried out.
  if (run.cancelledAt !== undefined || run.state === 'cancelled') return;
  const [planned, carriedOut, ready, failed, decided] = await deps.redis.hmget(
    deps.keys.run(runId),
    'planned',
    CARRIED_OUT,
    'snapshotReady',
    'snapshotFailed',
    VERDICT,
  );
  if (carriedOut || (ready !== '1' && !failed)) return;
  if (run.settled + Number(planned ?? 0) < run.total) return;
  // Decided already (a caller stopped half way carrying it out): not weighed again.
  const verdict = decided ? (JSON.parse(decided) as string) : await storedVerdict(deps, run, weighMissing);
  await carryOut(deps, run, verdict, queue);
  await deps.redis.hset(deps.keys.run(runId), CARRIED_OUT, 1);
}

/** `held`: the whole-run guards' reason (every write held); `''`: they passed. Decided once. */
async function storedVerdict(deps: DecideDeps, run: RunRecord, weighMissing: WeighMissing): Promise<string> {
  const key = deps.keys.run(run.id);
  const [updates, heldUpdates, lookalikeRows] = await deps.redis.hmget(
    key,
    'plan:update',
    'plan:held',
    LOOKALIKE_ROWS,
  );
  const lookalikes = lookalikeRows === '1' ? await lookalikesOf(deps.redis, deps.keys, run.id) : [];
  const refusal = wholeRunRefusal(run, {
    rows: run.total,
    invalid: run.counts['action:invalid'] ?? 0,
    updates: Number(updates ?? 0) + Number(heldUpdates ?? 0),
    listed: await productsWeighedAgainst(deps, run),
    missing: await weighMissing(run),
    lookalikes: lookalikeText(lookalikes),
  });
  await deps.redis.hsetnx(key, VERDICT, JSON.stringify(refusal ?? ''));
  // Held for values listed under the match column's own name: approving would duplicate them.
  if (refusal && lookalikes.some((held) => 'field' in held && held.field !== 'sku'))
    await deps.redis.hset(key, 'approveDuplicates', 1);
  return wholeRunVerdict(deps.redis, deps.keys, run.id);
}

/**
 * The seller's products the updates are weighed against (`--max-updates P%`): those listed at the
 * start of the run; or, when an `--incremental` run did not read the list, those the tool's record
 * (the id map) holds, which the list would have shown: the index then holds only the rows' own.
 */
export async function productsWeighedAgainst(
  deps: Pick<DecideDeps, 'redis' | 'keys'>,
  run: RunRecord,
): Promise<number> {
  if ((await deps.redis.hget(deps.keys.run(run.id), LIST_SKIPPED)) === '1') {
    return productsRecordedByField(deps.redis, deps.keys, run);
  }
  return deps.redis.hlen(deps.keys.products(run.id));
}

async function carryOut(
  deps: DecideDeps,
  run: RunRecord,
  runRefusal: string,
  queue: Queue<ChunkJobData>,
): Promise<void> {
  const plans = new PlanStore(deps.redis, deps.keys);
  const heldByRow = Number((await deps.redis.hget(deps.keys.run(run.id), 'plan:held')) ?? 0);
  const heldReason = runRefusal || (heldByRow > 0 ? rowGuardReason(run, heldByRow) : '');
  // Before any row settles `held`: whoever ends the run finds the reason there.
  if (heldReason) await deps.redis.hset(deps.keys.run(run.id), 'heldReason', heldReason);
  let held: RowOutcome[] = [];
  let apply: ProductUpsert[] = [];
  let chunk = 0;
  const flush = async (force: boolean) => {
    if (held.length > 0 && (force || held.length >= DEFAULT_CHUNK_SIZE)) {
      await deps.runs.settle(run.id, held);
      held = [];
    }
    if (apply.length > 0 && (force || apply.length >= DEFAULT_CHUNK_SIZE)) {
      await addChunk(queue, { runId: run.id, chunk: chunk++, rows: apply, phase: 'apply' });
      apply = [];
    }
  };
  // A run over the day's quota sends its most valuable writes first (`--first`): pass by pass, each
  // in row order. Any other run sends them in row order, in one pass.
  const first = run.first ?? DEFAULT_FIRST;
  const passes = run.planFirst ? WRITE_PASSES : [null];
  for (const pass of passes) {
    for await (const write of plans.inOrder(run.id, run.total)) {
      if (pass !== null && writePass(write, first) !== pass) continue;
      const reason = write.heldFor ?? runRefusal;
      if (reason) held.push(heldOutcome(write, reason));
      else apply.push(write.upsert);
      await flush(false);
    }
  }
  await flush(true);
}

/** A held row's report line: the action it would take, status `held`, and why. */
export function heldOutcome(write: PlannedWrite, reason: string): RowOutcome {
  const note = (write.upsert.notes ?? []).join('; ');
  return {
    row: write.upsert.row,
    key: write.upsert.key,
    action: write.action,
    productId: write.productId,
    status: 'held',
    error: reason,
    ...(note ? { note } : {}),
  };
}
