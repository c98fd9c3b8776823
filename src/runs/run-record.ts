import { randomBytes } from 'node:crypto';
import type { NamedField } from '../catalog/field-names.js';
import type { FieldValue } from '../interfaces.js';
import { type KeylessRows, keylessOf } from './keyless-rows.js';
import { requestsAtLeastIn } from './request-counts.js';
import { type RevertEntry, revertsOf } from './revert-history.js';

// The run record's shape, as Redis keeps it (a hash) and as every command reads it (RunStore.get).

/** What a run was asked to do. Stored in Redis: it never holds the API key, only the variable's name. */
export interface RunSpec {
  /** The source as shown to the user (a URL without its query string). */
  source: string;
  /** Identifies the source across imports (path, size and mtime; or URL and content), null for stdin. */
  sourceId: string | null;
  /**
   * The source by its path or URL and the options, not its content (absent for stdin and stores):
   * a run of a changed file or feed ends every earlier run of it that stopped unread (earlier-source-runs.ts).
   */
  sourceAddressId?: string | null;
  sellerRef: string;
  /** `--seller NAME` (or the name the key's seller was given earlier); absent for an unnamed seller. */
  sellerName?: string;
  baseUrl: string;
  keyEnv: string;
  /**
   * The `--keys-file` the run's process read keys from, as an absolute path (absent: none): the
   * `approve` line the run prints names it, for a shell that exported nothing. A path, never a key.
   */
  keysFile?: string;
  matchBy: string;
  /**
   * The match column's own names where the source reads it as the match field under another name
   * (`EAN`, `ean` for barcode: catalog/match-field.ts); absent for none.
   */
  matchColumnNames?: string[];
  dryRun: boolean;
  /**
   * The run's chunks are in a queue of their own (RedisKeys.ownRunQueue), served only by the process
   * that runs it, not in the seller's (a `run --dry-run`: queue/run-queue.ts says why). Absent: the seller's.
   */
  ownQueue?: boolean;
  dailyReset: string;
  dailyBudget: number | null;
  allowInsecure: boolean;
  preset: string;
  /** `--fields`: the product fields the run may send (null: every mapped field). */
  fields: string[] | null;
  /** `--create-only-fields`: sent on POST only, never in a PUT (null: none). */
  createOnlyFields?: string[] | null;
  /** `--keep-remote-edits`: fields whose marketplace edits are kept, or `['all']` (null: none). */
  keepRemoteEdits?: string[] | null;
  /** `--incremental`: diff against what this tool last sent while its record is complete and fresh. */
  incremental?: boolean;
  /** `--only-published`: rows the source does not sell were left out (reported skipped). */
  onlyPublished?: boolean;
  /** `--include-external`: products sold on another site were sent. */
  includeExternal?: boolean;
  /** `--price-includes-tax` (or `--tax-rate`): gross prices were sent. */
  priceIncludesTax?: boolean;
  /** `--tax-rate`, in percent (null: none given). */
  taxRate?: string | null;
  /** The fields this run's source gives (sent when they differ). */
  sentFields?: string[];
  /** Fields earlier runs sent that this source does not give: the summary names them. */
  absentFields?: string[];
  /** `--full-read-after`, in ms: the oldest full read an incremental run may rely on. */
  fullReadAfterMs?: number;
  /** `--max-invalid N|P%` (guard): more invalid rows than this holds the whole run. */
  maxInvalid?: string | null;
  /** `--max-updates N|P%` (guard): more updates than this (of the products listed) holds the whole run. */
  maxUpdates?: string | null;
  /** `--max-price-change P%` (guard): a row whose price moves more than this is held. */
  maxPriceChange?: string | null;
  /** `--only create|update`: the other rows are skipped. */
  only?: 'create' | 'update' | null;
  /** `--notify`: the webhook told of the run's end, hold and pauses (null: none). */
  notify?: string | null;
  /**
   * `notify` came from a job file, not the operator's command line: the process that POSTs to it
   * (`run`, or any worker) holds the address it connects to to the job file's rule, lifted by that
   * process's own `--allow-private-source` (notify/notifier.ts). Absent: the operator's, or a run
   * queued by a version that did not record it (told as before).
   */
  notifyFromJob?: boolean;
  /** `--missing field=value,…`: what a managed product gone from the source is given (null: none). */
  missing?: Record<string, FieldValue> | null;
  /** `--max-missing N|P%` (guard, with `--missing`): more deactivations than this hold the run. */
  maxMissing?: string | null;
  /** The source's rows as estimated before reading it (the plan said at the start; null: unknown). */
  rowEstimate?: number | null;
  /** What `rowEstimate` counts when it counts more than rows (RowEstimate.overcounts); the plan says it. */
  rowEstimateOvercounts?: string | null;
  /** `--first a,b`: a run over the day's quota sends updates of these fields first (issue 14). */
  first?: string[] | null;
  /**
   * Field names the options give that the tool does not know (nor the source gives): the seller's
   * listed products must show each, or the run is refused before any write (listed-fields.ts).
   */
  unknownFields?: NamedField[];
}

/** `held`: ended with writes a guard held back, until `approve` sends them. `cancelled`: ended by `cancel`. */
export type RunState = 'queued' | 'running' | 'held' | 'done' | 'cancelled';

export interface RunRecord extends RunSpec {
  id: string;
  state: RunState;
  createdAt: number;
  finishedAt: number | null;
  /** True once the producer has read the whole source: `total` is final. */
  produced: boolean;
  /** The run was ended before its source was read to the end (interrupted, or the source broke). */
  aborted: boolean;
  /** With `aborted`: why, in one line (the source's error), when the process that ended it knew. */
  endedEarly?: string;
  /**
   * The source broke half way and the run is ending: why, in one line (its `endedEarly` once it
   * ended). It is not over while rows it queued are still to settle (queue/ending-early.ts).
   */
  endingEarly?: string;
  /**
   * With `endingEarly`: what its rows read and never sent are reported with (its source broke, or
   * its reader died: queue/ending-early.ts unsentReason).
   */
  unsentReason?: string;
  /**
   * With `endingEarly`: its own process was interrupted (SIGINT, SIGTERM) before the source was read
   * to the end. Nothing broke: its rows never sent are left out as a cancel's are, not failed.
   */
  interrupted?: boolean;
  total: number;
  settled: number;
  snapshotReady: boolean;
  requests: number;
  writes: number;
  /**
   * `requests` and `writes` are lower bounds: a process that sent requests for the run stopped before
   * it had added them (request-counts.ts REQUESTS_AT_LEAST). Absent: they are exact.
   */
  requestsAtLeast?: boolean;
  /** Counts by `action:<action>`, `status:<status>`, `pair:<action>:<status>`, and `notes:rows` (rows with a note). */
  counts: Record<string, number>;
  /** A guard held the run: one line saying what tripped. */
  heldReason?: string;
  /**
   * Held for creates of values listed products carry under the match column's own name (`ean`, as
   * an earlier version's `--match-by ean` sent it): `approve` would make a second product of each,
   * so its line is not offered (approve-hint.ts).
   */
  approveDuplicates?: boolean;
  /**
   * When a guard held the run (ms): the end of the run's own work. `finishedAt` says it too until an
   * approval ends a round; from then on `finishedAt` is that round's end (held-rows.ts RESETTLE).
   */
  heldAt?: number;
  /** When `approve` began to send what a guard held back (its latest round's start). */
  approvedAt?: number;
  /**
   * When an `approve` took over that round, begun by an earlier one that stopped (its writes unqueued,
   * or queued and not all sent): the approval's time is told from then. Absent: one approve did it.
   */
  approvalResumedAt?: number;
  /**
   * While an `approve` queues its writes: when it last renewed its heartbeat (queue/approval-beat.ts).
   * Long silent, it is taken for stopped (approval-phase.ts).
   */
  approvalAliveAt?: number;
  /** An `approve` began and has not yet queued all its writes (still queueing, or stopped). */
  approvalUnqueued?: boolean;
  /**
   * Rows an `approve` under way approved and has not written yet: not held any more, not settled
   * yet (left out of `settled` and of the held count: approved-queued.ts). Absent: none.
   */
  approvedQueued?: number;
  /** With `approvedQueued`: the rows `approve --rows` named (absent: every held row was approved). */
  approvedRows?: number[];
  /** Each `revert` that put back what the run's updates replaced, oldest first (revert-history.ts). */
  reverts?: RevertEntry[];
  /** Reverts older than those kept in `reverts`: counted, no longer listed. */
  revertsDropped?: number;
  /** The latest revert: when, and what it did, by outcome (as `status --json` has always shown it). */
  revertedAt?: number;
  revertCounts?: Record<string, number>;
  /** When `cancel` was asked for (ms): no chunk of the run is synced from then on. */
  cancelledAt?: number;
  /**
   * The later run of the same source (its file or feed changed) that cancelled this one while
   * nobody was writing it (queue/supersede.ts): that run sends the source's current values.
   */
  supersededBy?: string;
  /**
   * The run needed more than the day's remaining quota when it started: it plans every row first,
   * then sends its most valuable writes first (`--first`; issue 14). Never holds anything.
   */
  planFirst?: boolean;
  /**
   * A `--missing` run that may deactivate (its list read, and nothing of partialRead's): it plans
   * every row first, so that `--max-missing` holds the whole run (missing/missing-guard.ts).
   */
  missingGuarded?: boolean;
  /**
   * The run's list read found products without a SKU that the tool has no record of: it plans every
   * row first, and a create of a row with a derived key under one of their names holds the whole run
   * (guards/lookalike-creates.ts: it may make that product a second time).
   */
  lookalikeGuarded?: boolean;
  /** The run was refused before any write: a field name it was given no listed product shows. */
  fieldsRefused?: string;
  /** `--incremental`: whether the run read the seller's products, and why (sync/incremental.ts). */
  incrementalRead?: string;
  /** `--missing` was given and not applied: why (missing/verdict.ts, partialRead). */
  missingNotApplied?: string;
  /** A dry run's figures over `--max-invalid` or `--max-updates`: what the real run would be held for (guards/dry-run-verdict.ts). */
  guardsWouldHold?: string;
  /** A dry run's deactivations over `--max-missing`: what the real run would be held for (missing/verdict.ts). */
  missingWouldHold?: string;
  /** A dry run's rows over `--max-price-change`: what the real run would hold (guards/dry-run-verdict.ts). */
  pricesWouldHold?: string;
  /** A dry run's creates that look like products the tool has no record of: what the real run would be held for. */
  lookalikeWouldHold?: string;
  /** Source rows read with no key: `--missing` may not deactivate without `approve` (keyless-rows.ts). */
  keyless?: KeylessRows;
  /** When the API rejected (401) the key of a run in a queue of its own (queue/own-queue-401.ts). */
  keyRejectedAt?: number;
}

export function newRunId(now = Date.now(), suffix = ''): string {
  const stamp = new Date(now).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  // On a cluster the seller's ref ends the id (RedisKeys.runIdSuffix): its keys are tagged from it.
  return `${stamp}-${randomBytes(3).toString('hex')}${suffix ? `-${suffix}` : ''}`;
}

/** The fields that `approve`, `revert`, `cancel` and the guards add to a run's hash, when present. */
export function laterFields(hash: Record<string, string>): Partial<RunRecord> {
  const fields: Partial<RunRecord> = {};
  if (hash.heldReason) fields.heldReason = hash.heldReason;
  if (hash.approveDuplicates === '1') fields.approveDuplicates = true;
  if (hash.heldAt) fields.heldAt = Number(hash.heldAt);
  if (hash.approvedAt) fields.approvedAt = Number(hash.approvedAt);
  if (hash.approvalResumedAt) fields.approvalResumedAt = Number(hash.approvalResumedAt);
  if (hash.approvalAliveAt) fields.approvalAliveAt = Number(hash.approvalAliveAt);
  // approve.ts: what an approval approves is kept until its round's writes are all queued.
  if (hash.approvalRows !== undefined && hash.approvals && hash.approvalQueued !== hash.approvals)
    fields.approvalUnqueued = true;
  if (hash.cancelledAt) fields.cancelledAt = Number(hash.cancelledAt);
  if (hash.supersededBy) fields.supersededBy = hash.supersededBy;
  if (hash.endedEarly) fields.endedEarly = hash.endedEarly;
  if (hash.endingEarly) fields.endingEarly = hash.endingEarly;
  if (hash.unsentReason) fields.unsentReason = hash.unsentReason;
  if (hash.interrupted === '1') fields.interrupted = true;
  if (hash.planFirst === '1') fields.planFirst = true;
  if (hash.missingGuarded === '1') fields.missingGuarded = true;
  if (hash.lookalikeGuarded === '1') fields.lookalikeGuarded = true;
  if (hash.fieldsRefused) fields.fieldsRefused = hash.fieldsRefused;
  if (hash.incrementalRead) fields.incrementalRead = hash.incrementalRead;
  if (hash.missingNotApplied) fields.missingNotApplied = hash.missingNotApplied;
  if (hash.guardsWouldHold) fields.guardsWouldHold = hash.guardsWouldHold;
  if (hash.missingWouldHold) fields.missingWouldHold = hash.missingWouldHold;
  if (hash.lookalikeWouldHold) fields.lookalikeWouldHold = hash.lookalikeWouldHold;
  if (hash.pricesWouldHold) fields.pricesWouldHold = hash.pricesWouldHold;
  const keyless = keylessOf(hash);
  if (keyless) fields.keyless = keyless;
  if (hash.keyRejectedAt) fields.keyRejectedAt = Number(hash.keyRejectedAt);
  if (requestsAtLeastIn(hash)) fields.requestsAtLeast = true;
  const { reverts, dropped } = revertsOf(hash);
  const latest = reverts.at(-1);
  if (latest) Object.assign(fields, { reverts, revertedAt: latest.at, revertCounts: latest.counts });
  if (dropped > 0) fields.revertsDropped = dropped;
  return fields;
}

/**
 * Run record field: no chunk of the run will ever read the seller's product list, Redis lost them all
 * before one did (queue/list-never-read.ts). Its end does not wait for the read, as after a failed one.
 */
export const LIST_NEVER_READ = 'listNeverRead';
