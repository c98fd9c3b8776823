import type { RowOutcome } from '../interfaces.js';
import type { RunRecord } from './run-record.js';

/**
 * Rows an `approve` approved and has not written yet (queued, or waiting out a pause of the seller):
 * their outcome in Redis stays `held` until their write resettles it (guards/held-rows.ts), and the
 * run's `approving` field counts them. They are held no longer, nor settled: the record `get` reads
 * shows them as rows still to settle, so that the report, `status`, its --json, the summary, the
 * webhook and the dashboard say the same, and a morning script never reads them as still held.
 */
export function withApprovedQueued(run: RunRecord, hash: Record<string, string>): RunRecord {
  // A round ends when its last row resettles (`done`, `held` again, or `cancelled`): none is queued then.
  const approving = run.state === 'running' ? Number(hash.approving ?? 0) : 0;
  const held = run.counts['status:held'] ?? 0;
  const queued = Math.min(Number.isFinite(approving) ? approving : 0, held);
  if (queued <= 0) return run;
  // queue/approval.ts: the rows `approve --rows` named; '' when it approved every held row.
  const rows = hash.approvalRows ? hash.approvalRows.split(',').map(Number) : null;
  return {
    ...run,
    settled: Math.max(0, run.settled - queued),
    counts: { ...run.counts, 'status:held': held - queued },
    approvedQueued: queued,
    ...(rows ? { approvedRows: rows } : {}),
  };
}

/**
 * Tells a report line of a row approved and not written yet (not held any more, not settled yet)
 * from one still held: every held row, or those `--rows` named, while the approval is under way.
 */
export function approvedQueuedTest(
  run: Pick<RunRecord, 'approvedQueued' | 'approvedRows'>,
): (outcome: RowOutcome) => boolean {
  if (!run.approvedQueued) return () => false;
  const named = run.approvedRows ? new Set(run.approvedRows) : null;
  return (outcome) =>
    outcome.status === 'held' && outcome.row !== null && (named === null || named.has(outcome.row));
}
