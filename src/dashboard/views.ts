import { leftUnreadText } from '../queue/producing-mark.js';
import { unqueuedApprovalText } from '../runs/approval-phase.js';
import { revertedHeldText } from '../runs/approve-hint.js';
import type { RunRecord, RunState } from '../runs/run-store.js';
import { formatDuration, runCounts, untilText } from '../runs/summary.js';
import { nextProbeText, type UnreachableRecord } from '../sellers/seller-reach.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import type { SellerStatus } from '../sellers/seller-state.js';
import { outOfReachText } from '../sync/seller-pause.js';

/** A seller queue's jobs by state, as BullMQ counts them. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export type SellerStateName = 'active' | 'paused' | 'key-rejected' | 'unreachable';

/** A seller as the dashboard shows it. Holds no key: a seller is named by its ref (a fingerprint). */
export interface SellerView {
  ref: string;
  /** The seller's name (`--seller`), null when it has none. */
  name: string | null;
  baseUrl: string;
  state: SellerStateName;
  /** "active", "paused until 00:00 UTC (in 3 h 12 min)" or "key rejected (401): …". */
  stateText: string;
  pausedUntil: number | null;
  requestsToday: number;
  queue: QueueCounts;
}

/** A run as the dashboard shows it: plain data, numbers as numbers, instants in ms since the epoch. */
export interface RunView {
  id: string;
  source: string;
  preset: string;
  sellerRef: string;
  /** The seller's name (`--seller`), null when it has none. */
  sellerName: string | null;
  state: RunState;
  /** The state, or why a run that is not done is held (a pause of its seller). */
  stateText: string;
  dryRun: boolean;
  total: number;
  settled: number;
  /** False while the source is still being read: `total` is what was read so far. */
  produced: boolean;
  /** Ended before its source was read to the end (interrupted, or the source broke). */
  aborted: boolean;
  /** The summary's counts, plus the rows a guard held back. */
  counts: ReturnType<typeof runCounts> & { held: number };
  /** What tripped the guard that held the run (state `held`, and after `approve`), or null. */
  heldReason: string | null;
  /** What happened to the run after it ended, oldest first: approved, reverted, cancelled. */
  history: string[];
  requests: number;
  writes: number;
  /** `requests` and `writes` are lower bounds: a process serving the run stopped mid-chunk. */
  requestsAtLeast: boolean;
  startedAt: number;
  finishedAt: number | null;
  /** Until the run finished, or until now while it goes on. */
  durationMs: number;
  durationText: string;
  reportUrl: string;
}

/** "paused until 00:00 UTC (in 3 h 12 min)", as `status` says it (dated when not later today). */
export function pausedText(until: number, now: number): string {
  return `paused until ${untilText(until, now)}`;
}

// As `status` says it: the rows never read would otherwise have kept the run open forever.
const ENDED_EARLY_TEXT = 'ended early: the source was not read to the end (interrupted, or the source broke)';
const KEY_REJECTED_TEXT =
  'key rejected (401): fix the key, then `catalog-sync resume` (a mistyped key: `catalog-sync cancel` its run, then run again with the right key)';

/** "cannot reach https://…/api/v1: connection refused (ECONNREFUSED); probed again at 02:14:05 UTC" */
function unreachableText(record: UnreachableRecord, served: boolean | undefined, now: number): string {
  const what = outOfReachText(record.baseUrl, record.cause, record.noApi === true);
  return `${what}; ${nextProbeText(record, now, served !== false)}`;
}

export function sellerView(
  info: SellerInfo,
  status: SellerStatus,
  queue: QueueCounts,
  now: number,
): SellerView {
  const state: SellerStateName = status.authRejected
    ? 'key-rejected'
    : status.unreachable
      ? 'unreachable'
      : status.pausedUntil !== null
        ? 'paused'
        : 'active';
  const stateText =
    state === 'key-rejected'
      ? KEY_REJECTED_TEXT
      : status.unreachable
        ? unreachableText(status.unreachable, status.served, now)
        : status.pausedUntil !== null
          ? pausedText(status.pausedUntil, now)
          : 'active';
  return {
    ref: info.ref,
    name: info.name ?? null,
    baseUrl: info.baseUrl,
    state,
    stateText,
    pausedUntil: status.pausedUntil,
    requestsToday: status.requestsToday,
    queue,
  };
}

/** `seller` is the run's seller's status, when known: a run that is not done may be held by its pause. */
export function runView(
  run: RunRecord,
  seller: SellerStatus | undefined,
  now: number,
  /** Its source left unread by a process that stopped (producing-mark.ts readerStopped). */
  readerStopped = false,
): RunView {
  const held = run.state !== 'done' && seller !== undefined;
  const stateText = run.aborted
    ? ENDED_EARLY_TEXT
    : readerStopped
      ? `${run.state}: ${leftUnreadText(run)}`
      : run.state === 'held'
        ? run.revertedAt !== undefined
          ? revertedHeldText(runCounts(run))
          : `held: ${run.heldReason ?? 'a guard held the writes back'}`
        : run.state === 'cancelled'
          ? 'cancelled'
          : held && seller.authRejected
            ? 'paused: API key rejected (401)'
            : held && seller.unreachable
              ? `paused: ${unreachableText(seller.unreachable, seller.served, now)}`
              : held && seller.pausedUntil !== null
                ? pausedText(seller.pausedUntil, now)
                : approvalText(run, now);
  // A cancelled run stopped when it was cancelled, not now.
  const durationMs = Math.max(0, (run.finishedAt ?? run.cancelledAt ?? now) - run.createdAt);
  return {
    id: run.id,
    source: run.source,
    preset: run.preset,
    sellerRef: run.sellerRef,
    sellerName: run.sellerName ?? null,
    state: run.state,
    stateText,
    dryRun: run.dryRun,
    total: run.total,
    settled: run.settled,
    produced: run.produced,
    aborted: run.aborted,
    counts: { ...runCounts(run), held: run.counts['status:held'] ?? 0 },
    heldReason: run.heldReason ?? null,
    history: runHistory(run),
    requests: run.requests,
    writes: run.writes,
    requestsAtLeast: run.requestsAtLeast === true,
    startedAt: run.createdAt,
    finishedAt: run.finishedAt,
    durationMs,
    durationText: formatDuration(durationMs),
    reportUrl: reportPath(run.id),
  };
}

/** `running: an approve stopped before it had queued its writes; …`, as `status` says it; else the state. */
function approvalText(run: RunRecord, now: number): string {
  const unqueued = unqueuedApprovalText(run, now);
  return unqueued ? `${run.state}: ${unqueued}` : run.state;
}

/**
 * "held 2026-05-10 03:01 UTC" (of a run approved since), "approved 2026-05-10 09:12 UTC", "reverted …:
 * 3 reverted, 1 failed", "cancelled …" (": superseded by run …"): by time.
 */
export function runHistory(run: RunRecord): string[] {
  const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const events: Array<[number, string]> = [];
  if (run.approvedAt !== undefined) {
    // An approved run's finish is its approval's end (held-rows.ts): when it was held is said apart.
    if (run.heldAt !== undefined) events.push([run.heldAt, `held ${at(run.heldAt)}`]);
    events.push([run.approvedAt, `approved ${at(run.approvedAt)}`]);
  }
  for (const revert of run.reverts ?? []) {
    // By name: the counts are a hash read from Redis, which keeps no order of its own.
    const counts = Object.entries(revert.counts)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([what, n]) => `${n} ${what}`);
    events.push([revert.at, `reverted ${at(revert.at)}${counts.length ? `: ${counts.join(', ')}` : ''}`]);
  }
  if (run.cancelledAt !== undefined) {
    // Cancelled by a newer read of its source (queue/supersede.ts), not by a person: which one.
    const by = run.supersededBy ? `: superseded by run ${run.supersededBy}` : '';
    events.push([run.cancelledAt, `cancelled ${at(run.cancelledAt)}${by}`]);
  }
  return events.sort(([a], [b]) => a - b).map(([, text]) => text);
}

export function reportPath(runId: string): string {
  return `/runs/${encodeURIComponent(runId)}/report.csv`;
}
