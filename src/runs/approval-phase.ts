import { APPROVAL_STOPPED_AFTER_MS } from '../defaults.js';
import type { RunRecord } from './run-record.js';

/**
 * Where an approval round under way stands, as `status`, its list and the dashboard tell it. The
 * run is marked approved (`approving` counts its rows) before any write is queued: until the round
 * is noted queued, the rows are approved and not queued. The approve queueing them renews a
 * heartbeat (`approvalAliveAt`, queue/approval-beat.ts): silent for APPROVAL_STOPPED_AFTER_MS it is
 * taken for stopped, as the next approve takes it; however long a live one queues, it never is.
 * - `queueing`: an approve is queueing the writes, heard from too recently to tell it stopped;
 * - `stopped`: the approve that began it stopped before it had queued them: `approve` finishes it;
 * - `queued`: every write is in the queue (waiting for a worker, or being sent);
 * null: no approval round under way.
 */
export type ApprovalPhase = 'queueing' | 'stopped' | 'queued';

type PhaseFields = Pick<
  RunRecord,
  'state' | 'approvalUnqueued' | 'approvedAt' | 'approvalResumedAt' | 'approvalAliveAt'
>;

export function approvalPhase(run: PhaseFields, now: number): ApprovalPhase | null {
  if (run.state !== 'running') return null;
  if (run.approvalUnqueued === true)
    return now - approveLastHeardAt(run) >= APPROVAL_STOPPED_AFTER_MS ? 'stopped' : 'queueing';
  return run.approvedAt === undefined ? null : 'queued';
}

/** When the latest approve of the round began: the one that took it over, if one did. */
export function approveStartedAt(run: Pick<RunRecord, 'approvedAt' | 'approvalResumedAt'>): number {
  return run.approvalResumedAt ?? run.approvedAt ?? 0;
}

/**
 * When the approve queueing the round was last heard from: its heartbeat, or its start when later
 * (it has not beaten yet, or a record written before approves had a heartbeat).
 */
export function approveLastHeardAt(
  run: Pick<RunRecord, 'approvedAt' | 'approvalResumedAt' | 'approvalAliveAt'>,
): number {
  return Math.max(run.approvalAliveAt ?? 0, approveStartedAt(run));
}

/**
 * The state of a running run whose approval is not queued yet, or null: what is under way, and the
 * command that finishes an approve that stopped (from when the next approve takes it for stopped).
 */
export function unqueuedApprovalText(run: PhaseFields & Pick<RunRecord, 'id'>, now: number): string | null {
  const phase = approvalPhase(run, now);
  if (phase === 'stopped')
    return `an approve stopped before it had queued its writes; \`catalog-sync approve ${run.id}\` finishes it`;
  if (phase !== 'queueing') return null;
  const since = approveStartedAt(run);
  const stoppedFrom = approveLastHeardAt(run) + APPROVAL_STOPPED_AFTER_MS;
  return (
    `an approve is queueing its writes (since ${new Date(since).toISOString()}); if it was stopped, ` +
    `\`catalog-sync approve ${run.id}\` finishes it from ${new Date(stoppedFrom).toISOString()}`
  );
}

/**
 * `, 20 approved and queued (not sent yet)` and the like: the rows of the round under way not written
 * yet (approved-queued.ts), in the words of its phase; '' for none.
 */
export function approvedRowsText(
  run: PhaseFields & Pick<RunRecord, 'id' | 'approvedQueued'>,
  now: number,
): string {
  const n = run.approvedQueued;
  if (!n) return '';
  const phase = approvalPhase(run, now);
  if (phase === 'stopped')
    return `, ${n} approved and not queued: the approve stopped before it had queued them (\`catalog-sync approve ${run.id}\` finishes it)`;
  if (phase === 'queueing') return `, ${n} approved, being queued by an approve under way (not sent yet)`;
  return `, ${n} approved and queued (not sent yet)`;
}
