import type { RunRecord } from '../runs/run-store.js';
import { supersededText } from '../runs/summary.js';

/**
 * The line of an `approve` of a run that holds nothing: its state, and for a run a newer read of
 * its source superseded, which run that was (its writes, if any are held, are that run's to approve).
 */
export function nothingToApproveLine(run: RunRecord): string {
  if (run.state === 'cancelled' && run.supersededBy)
    return `run ${run.id} holds nothing to approve: it is cancelled, ${supersededText(run.supersededBy)}; see \`catalog-sync status ${run.supersededBy}\``;
  return `run ${run.id} holds nothing to approve (it is ${run.state})`;
}
