import type { Queue } from 'bullmq';
import { bullmq } from '../cjs-packages.js';
import { countOf } from '../count-words.js';
import { APPROVAL_STOPPED_AFTER_MS, DEFAULT_CHUNK_SIZE } from '../defaults.js';
import { PRODUCTS_LISTED } from '../guards/approval-read.js';
import { HeldRows } from '../guards/held-rows.js';
import { rememberApproved } from '../guards/lookalike-creates.js';
import { refuseWhileLaterRunsWrite, settleSuperseded } from '../guards/superseded.js';
import { rowGuardReason } from '../guards/verdict.js';
import type { ProductUpsert } from '../interfaces.js';
import { enqueueDeactivations } from '../missing/deactivations.js';
import { heldDeactivations, makeHeldDue } from '../missing/held-deactivations.js';
import { PlanStore } from '../plan/plan-store.js';
import { approvalPhase, approveLastHeardAt, approveStartedAt } from '../runs/approval-phase.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import { addChunk } from '../runs/chunk-job.js';
import type { RunRecord } from '../runs/run-store.js';
import { APPROVAL_READ } from '../sync/incremental.js';
import { SNAPSHOT_FAILED } from '../sync/snapshot.js';
import { UsageError } from '../usage-error.js';
import { APPROVAL_ALIVE_AT, type ApprovalBeatDeps, beatWhileQueueing } from './approval-beat.js';
import { APPROVAL_RESUMED_AT, takeOverStoppedApproval } from './approval-takeover.js';
import { approvalUnderWayLine } from './approval-under-way.js';
import { endAfterDeactivations, type FinaliseDeps, tellApprovalEnd } from './finalise.js';
import { nothingToApproveLine } from './nothing-to-approve.js';
import { queueOptions } from './queue-options.js';

/**
 * What queueing an approval reads and writes: Redis, its keys and the run store; the webhook and
 * the log of a round that ends here (every row superseded, every deactivation back in the source);
 * the heartbeat renewed while it queues (approval-beat.ts).
 */
export interface ApprovalDeps extends FinaliseDeps, ApprovalBeatDeps {
  prefix: string;
}

/**
 * What `approve` queued: held rows, and (approving the whole run) held deactivations; and the held
 * rows it settled unwritten, by the later run whose source has them (guards/superseded.ts).
 */
export interface Approved {
  rows: number;
  deactivations: number;
  superseded: ReadonlyMap<string, number>;
}

// A held run becomes running again, once (two approves at once: one wins). The run's index of the
// seller's products is dropped, so that the approved rows are diffed against the products as they
// are now: a product changed meanwhile is re-planned, not blindly written (an --incremental run that
// read no product reads the held ones then, guards/approval-read.ts). What is approved (the
// rows, '' for all) is kept until the round's writes are all queued (APPROVAL_QUEUED): an approve
// stopped in between (killed, Redis gone) is finished by the next one, once its heartbeat is old
// (approval-beat.ts). How many products the run listed is kept first (the first round's: later
// ones drop an index an approval read, maybe by id): the approval reads by id when that costs less
// (guards/approval-read.ts), as `revert` does. A held reason that counts the held rows (ARGV[5], '' for none) says, from
// now on, those left held.
const START_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'held' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'running', 'approving', ARGV[1], 'approvedAt', ARGV[2], 'approvalRows', ARGV[4], 'approvalCount', ARGV[1])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'heldReason', ARGV[5]) end
if redis.call('HEXISTS', KEYS[1], '${PRODUCTS_LISTED}') == 0 and redis.call('EXISTS', KEYS[2]) == 1 then
  redis.call('HSET', KEYS[1], '${PRODUCTS_LISTED}', redis.call('HLEN', KEYS[2]))
end
redis.call('HDEL', KEYS[1], 'snapshotReady', ARGV[3], 'deactivationsEnded', 'approvalQueued', '${APPROVAL_READ}', '${APPROVAL_RESUMED_AT}', '${APPROVAL_ALIVE_AT}')
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
return redis.call('HINCRBY', KEYS[1], 'approvals', 1)
`;

/** Run record field: the approval round whose writes are all in the queue. */
const APPROVAL_QUEUED = 'approvalQueued';

/** An approval whose run is marked running: its round, and what it approves. */
export interface ApprovalRound {
  round: number;
  /** The approved rows; null: every held row, and the held deactivations. */
  rows: number[] | null;
  count: number;
  /** True when an earlier approve of this round stopped before it had queued every write. */
  resumed: boolean;
}

/** `--rows 3,7,…`: data row numbers. */
export function parseRowList(text: string): number[] {
  const rows = text.split(',').map((part) => part.trim());
  if (rows.length === 0 || rows.some((row) => !/^[1-9]\d{0,9}$/.test(row)))
    throw new UsageError(`--rows takes data row numbers such as 3,7, not "${text}"`);
  return [...new Set(rows.map(Number))].sort((a, b) => a - b);
}

/**
 * Queues the held writes of a run for the workers (all, or `rows`), after checking that each is held:
 * one line (exit 2) for a run that holds nothing or a row that is not held. Held deactivations
 * (`--missing`) have no row number: they go with the whole run's approval, never with `--rows`.
 * An approval stopped before its writes were all queued is finished instead (`resumed`). Resolves
 * to how many of each.
 */
export async function queueApproval(
  deps: ApprovalDeps,
  run: RunRecord,
  rows: number[] | null,
  now = Date.now(),
): Promise<Approved & { resumed: boolean }> {
  const approval =
    (await unfinishedApproval(deps, run, rows, now)) ?? (await startApproval(deps, run, rows, now));
  // Alive from here until the round is noted queued: no other approve takes it over meanwhile.
  const { deactivations, superseded } = await beatWhileQueueing(deps, run.id, approval.round, async () => {
    // Before its writes are queued: an approve stopped after them is finished by `approve` without this.
    await rememberApproved(deps.redis, deps.keys, run, approval.rows);
    return queueApprovedWrites(deps, run, approval);
  });
  const unwritten = [...superseded.values()].reduce((sum, n) => sum + n, 0);
  return {
    rows: Math.max(0, approval.count - unwritten),
    deactivations,
    superseded,
    resumed: approval.resumed,
  };
}

/**
 * Marks a held run approved (one round more) after checking what is approved; nothing is queued
 * yet (queueApprovedWrites). One line (exit 2) for a run that holds nothing, a row not held, a
 * held product a later run of the seller is still to write, or a run another approve has just started.
 */
export async function startApproval(
  deps: ApprovalDeps,
  run: RunRecord,
  rows: number[] | null,
  now = Date.now(),
): Promise<ApprovalRound> {
  const held = new HeldRows(deps.redis, deps.keys);
  const heldCount = run.counts['status:held'] ?? 0;
  if (run.state !== 'held' || heldCount + heldDeactivations(run) === 0)
    throw new UsageError(nothingToApproveLine(run));
  // Its other writes were put back: its held ones, from the same feed, are not sent after them.
  if (run.revertedAt !== undefined)
    throw new UsageError(
      `run ${run.id} was reverted: its held rows are not sent (run its source again to send what it should)`,
    );
  if (rows) {
    const heldNow = await held.heldAmong(run.id, rows);
    const notHeld = rows.find((row) => !heldNow.has(row));
    if (notHeld !== undefined) {
      const where =
        notHeld > run.total ? `run ${run.id} has ${countOf(run.total, 'row')}` : 'see `catalog-sync report`';
      throw new UsageError(`row ${notHeld} of run ${run.id} is not held (${where})`);
    }
  }
  await refuseWhileLaterRunsWrite(deps, run, rows);
  const count = rows ? rows.length : heldCount;
  const round = (await deps.redis.eval(
    START_SCRIPT,
    4,
    deps.keys.run(run.id),
    deps.keys.products(run.id),
    deps.keys.keyToId(run.id),
    deps.keys.idToKey(run.id),
    count,
    now,
    SNAPSHOT_FAILED,
    rows ? rows.join(',') : '',
    rows ? (reasonLeftHeld(run, heldCount, heldCount - count) ?? '') : '',
  )) as number;
  if (round === 0) throw new UsageError(approvalUnderWayLine(run.id, rows, 'it has just begun'));
  return { round, rows, count, resumed: false };
}

/**
 * The held reason once `approve --rows` has sent all but `left` of the `held` rows, when the
 * reason counts them (the row guard's: `5 rows held: their prices move…`) or says nothing was sent
 * (a whole run's hold). Null for any other reason, and when no row is left and the run ends. With
 * no row left and deactivations held with the run (`--missing`), whatever held the run gives way to
 * their count (a `--max-missing` hold's `…: nothing was sent` is no longer true once a row was):
 * their own report lines keep the reason they were held with. Each round that leaves rows held
 * writes it anew: the stored reason counts the rows held then.
 */
function reasonLeftHeld(run: RunRecord, held: number, left: number): string | null {
  if (run.heldReason === undefined) return null;
  const rowGuard = Boolean(run.maxPriceChange) && run.heldReason === rowGuardReason(run, held);
  const deactivations = heldDeactivations(run);
  if (left <= 0 && deactivations > 0)
    return `no row held; ${countOf(deactivations, 'deactivation')} held with the run (--missing): \`approve\` without --rows sends ${deactivations === 1 ? 'it' : 'them'}`;
  if (left <= 0) return null;
  if (rowGuard) return rowGuardReason(run, left);
  // A whole run's hold (--max-invalid, --max-updates) said `nothing was sent`: no longer true.
  const whole = WHOLE_HOLD_END.exec(run.heldReason);
  if (!whole) return null;
  return `${run.heldReason.slice(0, whole.index)}: ${countOf(left, 'row')} still held, the others approved`;
}

/** How a whole run's held reason ends (guards/verdict.ts), or ended after an earlier `--rows`. */
const WHOLE_HOLD_END = /: (?:nothing was sent|\d+ rows? still held, the others approved)$/;

/** True when the run's last approve stopped before it had queued its writes (`status` says so). */
export function approvalStopped(run: RunRecord, now: number): boolean {
  return approvalPhase(run, now) === 'stopped';
}

/**
 * The approval of a running run whose writes were not all queued (its approve was stopped), or
 * null. Asked with other `--rows` than it approved, or while the approve queueing it is alive (its
 * heartbeat fresh, approval-beat.ts): one line.
 */
async function unfinishedApproval(
  deps: ApprovalDeps,
  run: RunRecord,
  rows: number[] | null,
  now: number,
): Promise<ApprovalRound | null> {
  if (run.state !== 'running' || !run.approvalUnqueued) return null;
  if (!approvalStopped(run, now)) throw beingApprovedError(run, rows);
  // run-record.ts: an unqueued approval has its rows ('' for all) in the record.
  const [approvals, kept, count] = await deps.redis.hmget(
    deps.keys.run(run.id),
    'approvals',
    'approvalRows',
    'approvalCount',
  );
  const approvedRows = kept ?? '';
  const stopped = approvedRows === '' ? null : approvedRows.split(',').map(Number);
  if (rows && rows.join(',') !== approvedRows) {
    throw new UsageError(
      `run ${run.id}'s approval of ${stopped ? `rows ${approvedRows}` : 'every held row'} stopped before it was queued: ` +
        `finish it first with \`catalog-sync approve ${run.id}\`${stopped ? ` --rows ${approvedRows}` : ''}`,
    );
  }
  const round = Number(approvals);
  // Its approve renewed its heartbeat since the record was read (or another took it over): alive.
  if (!(await takeOverStoppedApproval(deps, run.id, round, now))) throw beingApprovedError(run, rows);
  return { round, rows: stopped, count: Number(count ?? 0), resumed: true };
}

/** Another approve is queueing the run's writes: when it began, and from when it may be taken for stopped. */
function beingApprovedError(run: RunRecord, rows: number[] | null): UsageError {
  const since = new Date(approveStartedAt(run)).toISOString();
  const stoppedFrom = new Date(approveLastHeardAt(run) + APPROVAL_STOPPED_AFTER_MS).toISOString();
  return new UsageError(
    approvalUnderWayLine(
      run.id,
      rows,
      `since ${since}`,
      `if that approve was stopped, run this again after ${stoppedFrom}`,
    ),
  );
}

/**
 * Queues an approval round's writes, then notes the round queued. Safe to do again for the same
 * round: job ids are the round's and the chunk's, a row settles once, and a deactivation leaves the
 * due list once sent. The rows a later run superseded settle first, unwritten and unqueued: a round
 * left with nothing to write reads no product. Resolves to the held deactivations queued, and the
 * superseded rows by the run that superseded them.
 */
async function queueApprovedWrites(
  deps: ApprovalDeps,
  run: RunRecord,
  approval: ApprovalRound,
): Promise<{ deactivations: number; superseded: ReadonlyMap<string, number> }> {
  const { round, rows, count } = approval;
  // Due again before any approved row is queued: the round's last row then sees deactivations to
  // come and leaves ending the run to them (held-rows.ts, finalise.ts endAfterDeactivations).
  // Finishing a stopped round: those made due then, and since, are the ones still due.
  const madeDue = rows ? 0 : await makeHeldDue(deps, run);
  const deactivations =
    rows || !approval.resumed ? madeDue : await deps.redis.hlen(deps.keys.deactivations(run.id));
  const queue = new (bullmq().Queue)<ChunkJobData>(
    deps.keys.sellerQueue(run.sellerRef),
    queueOptions(deps.redis, deps.prefix),
  );
  let superseded: Awaited<ReturnType<typeof settleSuperseded>> = { rows: new Set(), byRun: new Map() };
  try {
    const held = new HeldRows(deps.redis, deps.keys);
    // After the deactivations are due: a round whose last row settles here leaves ending the run to them.
    if (count > 0) superseded = await settleSuperseded(deps, run, rows ?? held.all(run.id, run.total));
    // Every approved row was superseded: the last one ended the round, told as any round's end.
    await tellApprovalEnd(deps, run.id);
    const left = rows ? rows.filter((row) => !superseded.rows.has(row)) : held.all(run.id, run.total);
    if (count > superseded.rows.size) await enqueue(deps, run, left, round, queue);
    if (deactivations > 0) await enqueueDeactivations(deps, run.id, queue, round);
    // Every held deactivation came back into the source meanwhile: nothing to send, the run ends.
    else if (count === 0) await endAfterDeactivations(deps, run.id);
  } finally {
    await queue.close();
  }
  await deps.redis.hset(deps.keys.run(run.id), APPROVAL_QUEUED, round);
  return { deactivations, superseded: superseded.byRun };
}

async function enqueue(
  deps: ApprovalDeps,
  run: RunRecord,
  rows: Iterable<number> | AsyncIterable<number>,
  round: number,
  queue: Queue<ChunkJobData>,
): Promise<void> {
  const plans = new PlanStore(deps.redis, deps.keys);
  let batch: number[] = [];
  let chunk = 0;
  const flush = async () => {
    const writes = await plans.get(run.id, batch);
    const upserts: ProductUpsert[] = batch.flatMap((row) => {
      const write = writes.get(row);
      return write ? [write.upsert] : [];
    });
    batch = [];
    if (upserts.length > 0)
      await addChunk(queue, { runId: run.id, chunk: chunk++, rows: upserts, phase: 'approve', round });
  };
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= DEFAULT_CHUNK_SIZE) await flush();
  }
  await flush();
}
