import { endedState } from '../runs/ended-state.js';
import type { RunRecord } from '../runs/run-store.js';
import { runCounts, supersededText } from '../runs/summary.js';
import { outOfReachText } from '../sync/seller-pause.js';

/** What happened to a run that a webhook hears of (README, Webhooks and metrics). */
export type RunEvent = 'ended' | 'held' | 'paused' | 'key-rejected' | 'api-unreachable';

export interface NotifyCounts {
  created: number;
  updated: number;
  unchanged: number;
  invalid: number;
  failed: number;
  skipped: number;
  held: number;
  /** Rows whose write the API accepted but did not apply (it still shows the old value). */
  notApplied: number;
  /** `--missing`: managed products gone from the source that got their deactivating PUT. */
  deactivated: number;
  /**
   * `--missing`: deactivations a guard held back (`--max-missing`, or the run held whole), not sent:
   * `approve` sends them. Apart from `held`, which counts the source's rows held.
   */
  deactivateHeld: number;
  /**
   * Rows read from the source that have no outcome (yet): for `ended`, rows the run never tried
   * (it ended early). Rows past the point where the source broke were never read: not counted.
   */
  notTried: number;
}

/**
 * The JSON body of one POST. Built from the run record only: no header, no environment, no key
 * (the record never holds one). `text` is one line a Slack incoming webhook shows as the message.
 */
export interface NotifyBody {
  event: RunEvent;
  runId: string;
  /**
   * The run's state as `status` says it: `ended-early` for a run ended before its source was read to
   * the end, `refused` for one its read of the seller's products refused before any write (a field
   * name no listed product shows): their records say `done`, which a hook must not read as a whole run.
   */
  state: string;
  sellerRef: string;
  /** The seller's name (`--seller`), when it has one. */
  sellerName?: string;
  source: string;
  counts: NotifyCounts;
  /** When the pause lifts by itself (ISO 8601); only for `paused`. */
  resumesAt?: string;
  /** What tripped the guard; only for `held`. */
  heldReason?: string;
  /** Why the run ended before its source was read to the end; only for `ended-early`. */
  endedEarly?: string;
  /** The one line `run` printed refusing it (`--missing: stock: no product has it; …`); only for `refused`. */
  refused?: string;
  /** The newer read of the same source that cancelled this run; only for a superseded run. */
  supersededBy?: string;
  text: string;
}

export function notifyCounts(run: RunRecord): NotifyCounts {
  const c = runCounts(run);
  return {
    created: c.created,
    updated: c.updated,
    unchanged: c.unchanged,
    invalid: c.invalid,
    failed: c.failed,
    skipped: c.skipped,
    held: run.counts['status:held'] ?? 0,
    notApplied: c.notApplied,
    deactivated: c.deactivated,
    deactivateHeld: c.deactivateHeld,
    notTried: Math.max(0, run.total - run.settled),
  };
}

/** What a pause's event says besides its name, as the seller's state holds it. */
export interface PauseDetail {
  /** `paused`: when the daily limit or budget lifts (ms). */
  resumesAt?: number | null;
  /** `api-unreachable`: what kept the requests from the API (the reach record's cause and noApi). */
  unreachable?: { cause: string; noApi: boolean };
}

export function notifyBody(event: RunEvent, run: RunRecord, detail: PauseDetail = {}): NotifyBody {
  const { resumesAt } = detail;
  const counts = notifyCounts(run);
  const ended = endedState(run);
  const body: NotifyBody = {
    event,
    runId: run.id,
    state: ended.state,
    sellerRef: run.sellerRef,
    ...(run.sellerName ? { sellerName: run.sellerName } : {}),
    source: run.source,
    counts,
    text: '',
  };
  if (event === 'paused' && resumesAt != null) body.resumesAt = new Date(resumesAt).toISOString();
  if (event === 'held' && run.heldReason) body.heldReason = run.heldReason;
  if ('endedEarly' in ended) body.endedEarly = ended.endedEarly;
  if ('refused' in ended) body.refused = ended.refused;
  if (event === 'ended' && run.supersededBy) body.supersededBy = run.supersededBy;
  body.text = `catalog-sync run ${run.id} ${what(body, run, detail)} (seller ${run.sellerName ?? run.sellerRef})`;
  return body;
}

function what(body: NotifyBody, run: RunRecord, detail: PauseDetail): string {
  const c = body.counts;
  switch (body.event) {
    case 'ended': {
      const parts = run.dryRun
        ? [
            `${run.counts['pair:create:planned'] ?? 0} to create`,
            `${run.counts['pair:update:planned'] ?? 0} to update`,
          ]
        : [`${c.created} created`, `${c.updated} updated`];
      if (c.invalid) parts.push(`${c.invalid} invalid`);
      parts.push(`${c.failed} failed`);
      // Rows a cancel (or --only, --only-published) left out, and rows an early end left untried:
      // without them a cancelled run reads as a run that had nothing to do.
      if (c.skipped) parts.push(`${c.skipped} skipped`);
      if (c.notTried) parts.push(`${c.notTried} not tried`);
      if (c.notApplied) parts.push(`${c.notApplied} accepted but not applied`);
      if (c.deactivated) parts.push(`${c.deactivated} deactivated`);
      return `${endedAs(body, run)}: ${parts.join(', ')}`;
    }
    case 'held': {
      const reason = run.heldReason ?? 'a guard held the writes back';
      // A whole run's hold says it already (guards/verdict.ts): not twice in one line.
      const unsent = reason.endsWith('nothing was sent') ? '' : '; nothing held was sent';
      return `held: ${reason}${unsent} (catalog-sync approve ${run.id})`;
    }
    case 'paused':
      return `paused on the daily limit until ${body.resumesAt ?? 'the reset'}; ${unqueuedRows(run) ?? 'its rows stay queued'}`;
    case 'key-rejected':
      return `paused: the API key was rejected (401); fix it, then catalog-sync resume --seller ${run.sellerName ?? run.sellerRef}`;
    case 'api-unreachable': {
      // In the words `run`, `status` and the dashboard use (outOfReachText); no cause known: the URL.
      const reach = detail.unreachable;
      const unqueued = unqueuedRows(run);
      if (reach?.noApi)
        return `paused: ${outOfReachText(run.baseUrl, reach.cause, true)}; ${unqueued ?? 'its rows stay queued'}, none sent: drop them with catalog-sync cancel ${run.id}`;
      const what = reach ? outOfReachText(run.baseUrl, reach.cause, false) : `cannot reach ${run.baseUrl}`;
      return `paused: ${what}; ${unqueued ?? 'its rows stay queued and go on once the API answers'}`;
    }
  }
}

/**
 * Said of a run an `approve` marked approved whose writes are not all queued yet (queue/approval.ts):
 * not "its rows stay queued", which a run whose approve stopped then would wait on forever. Null otherwise.
 */
function unqueuedRows(run: RunRecord): string | null {
  if (run.state !== 'running' || run.approvalUnqueued !== true) return null;
  return `its approved rows are not all queued yet (if the approve queueing them stopped, catalog-sync approve ${run.id} finishes it)`;
}

/** How an `ended` run ended, as the text line's head: never `done` for a run that did not end whole. */
function endedAs(body: NotifyBody, run: RunRecord): string {
  if (body.endedEarly !== undefined) return `ended early (${body.endedEarly})`;
  // Nothing was written: every row is `failed`, not sent, for the reason `run` printed.
  if (body.refused !== undefined) return `refused (${body.refused})`;
  if (body.supersededBy !== undefined) return supersededText(body.supersededBy);
  if (run.state === 'cancelled') return 'cancelled';
  return run.dryRun ? 'planned (dry run)' : 'done';
}
