import { countOf } from '../count-words.js';
import { terminalSafe } from '../terminal-safe.js';
import { approveLine } from './approve-hint.js';
import type { HintConnection } from './connection-words.js';
import type { LearnedLimit } from './learned-limit.js';
import { absentFieldsLine } from './managed-fields.js';
import { daysNeeded, dayWord, knownLimit } from './run-plan.js';
import type { RunRecord } from './run-store.js';

/** Counts of a run by what became of its rows, with zeros filled in. */
export function runCounts(run: RunRecord) {
  const count = (name: string) => run.counts[name] ?? 0;
  return {
    created: count('pair:create:ok'),
    updated: count('pair:update:ok'),
    unchanged: count('action:unchanged'),
    invalid: count('action:invalid'),
    merged: count('action:merged'),
    /** Rows left out on purpose (status ok); a row skipped because it could not be synced is failed. */
    skipped: count('pair:skipped:ok'),
    missing: count('action:missing'),
    /** Of the `missing` lines: a second product under a key the source holds (another is its row's). */
    sameKey: count('notes:same-key'),
    /** `--missing`: managed products gone from the source, by the status of their `deactivate` line. */
    deactivated: count('pair:deactivate:ok') - count('notes:already-so') - count('notes:back-in-source'),
    /** Gone from the source and already showing the `--missing` values: no write. */
    alreadySo: count('notes:already-so'),
    /** Held deactivations that `approve` found back in a later run's source: no write. */
    backInSource: count('notes:back-in-source'),
    deactivateFailed: count('pair:deactivate:failed'),
    deactivateHeld: count('pair:deactivate:held'),
    toDeactivate: count('pair:deactivate:planned'),
    /** Rows a guard held back: nothing was sent for them (`approve` sends them). */
    held: count('status:held'),
    /** Rows that failed (a 400, retries used up, the API out of reach); invalid rows are counted apart. */
    failed: count('status:failed') - count('pair:invalid:failed'),
    toCreate: count('pair:create:planned'),
    toUpdate: count('pair:update:planned'),
    /** Rows whose report line carries a `note`. */
    noted: count('notes:rows'),
    /** Rows with a write the API accepted but did not apply (now or on an earlier run). */
    notApplied: count('notes:not-applied'),
    /** Rows back in the source whose product keeps a `--missing` value it had none before (missing/still-off.ts). */
    stillOff: count('notes:still-off'),
  };
}

/** Why a run's requests are a lower bound (RunRecord.requestsAtLeast), as the summary and `status` say it. */
export const REQUESTS_AT_LEAST_WHY =
  'a process serving the run stopped mid-chunk (it died, or was stopped or cut off past its lock) and its chunk was taken over: the last requests it sent may be missing';

/** `12`, or `at least 12` when a process stopped before it had added its counts (requestsAtLeast). */
export function requestCount(run: Pick<RunRecord, 'requestsAtLeast'>, count: number): string {
  return run.requestsAtLeast ? `at least ${count}` : String(count);
}

/** `12 (9 writes)`; `at least 12 (at least 9 writes): why` after a process stopped mid-chunk. */
function requestsLine(run: RunRecord): string {
  const writes = countOf(run.writes, 'write', 'writes', requestCount(run, run.writes));
  const why = run.requestsAtLeast ? `: ${REQUESTS_AT_LEAST_WHY}` : '';
  return `${requestCount(run, run.requests)} (${writes})${why}`;
}

/**
 * A dry run's plan against the daily limit (issue 14): the requests the run needs (the reads it
 * made, plus one per write), and, where the limit is known (`--daily-budget`, else the one the
 * seller's last 429 taught), the days that takes.
 */
export function planLine(run: RunRecord, writes: number, learned: LearnedLimit | null = null): string {
  const needed = run.requests + writes;
  const head = `  requests  ${needed} needed (${countOf(run.requests, 'read')}, ${countOf(writes, 'write')})`;
  const limit = knownLimit(run.dailyBudget, learned);
  if (!limit) return `${head}; the daily limit is not known (--daily-budget N tells it)`;
  return `${head}, ${limit.perDay} a day (${limit.source}): ${dayWord(daysNeeded(needed, limit.perDay))}`;
}

/**
 * What became of a run's source rows, as the summary and `status` both say it: every outcome a row
 * can have, so the counts add up to the rows settled (merged, skipped and held only when some are).
 */
export function rowOutcomes(
  run: Pick<RunRecord, 'dryRun' | 'approvedQueued' | 'approvalUnqueued'>,
  c: ReturnType<typeof runCounts>,
): string {
  const writes = run.dryRun
    ? `${c.toCreate} to create, ${c.toUpdate} to update`
    : `${c.created} created, ${c.updated} updated`;
  return [
    `${writes}, ${c.unchanged} unchanged, ${c.invalid} invalid, ${c.failed} failed`,
    c.merged ? `, ${c.merged} merged` : '',
    c.skipped ? `, ${c.skipped} skipped` : '',
    c.held ? `, ${c.held} held` : '',
    // Approved, not written yet (approved-queued.ts): neither held nor settled, and counted here so
    // that the outcomes add up to the rows. Queued only once the approve noted its writes queued.
    run.approvedQueued
      ? `, ${run.approvedQueued} approved ${run.approvalUnqueued ? 'and not queued yet' : 'and queued'}`
      : '',
  ].join('');
}

/** `3 deactivated, 1 already so, 2 held`: what became of a run's `deactivate` lines, '' for none. */
export function deactivationText(c: ReturnType<typeof runCounts>): string {
  return [
    c.deactivated ? `${c.deactivated} deactivated` : '',
    c.alreadySo ? `${c.alreadySo} already so` : '',
    c.backInSource ? `${c.backInSource} back in the source` : '',
    c.toDeactivate ? `${c.toDeactivate} to deactivate` : '',
    c.deactivateHeld ? `${c.deactivateHeld} held` : '',
    c.deactivateFailed ? `${c.deactivateFailed} failed` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

/** `  incremental …`: whether an `--incremental` run read the products, and why; null for other runs. */
export function incrementalLine(run: Pick<RunRecord, 'incrementalRead'>): string | null {
  return run.incrementalRead ? `  incremental ${run.incrementalRead}` : null;
}

/** `  deactivate none: …`: `--missing` was given and not applied, and why; null when it was not. */
export function missingNotAppliedLine(run: Pick<RunRecord, 'missingNotApplied'>): string | null {
  return run.missingNotApplied ? `  deactivate none: --missing not applied, ${run.missingNotApplied}` : null;
}

/**
 * `  guard     a run without --dry-run would be held …`: every guard a dry run found would hold the
 * real run (guards/dry-run-verdict.ts), in the words of the real run's hold and in its order
 * (guards/verdict.ts): the whole-run ones (`--max-invalid`, `--max-updates`, `--max-missing`, rows
 * with no key, look-alike creates), then the rows `--max-price-change` would hold; null for none.
 */
export function wouldHoldLine(
  run: Pick<RunRecord, 'guardsWouldHold' | 'missingWouldHold' | 'lookalikeWouldHold' | 'pricesWouldHold'>,
): string | null {
  const reasons = [
    run.guardsWouldHold,
    run.missingWouldHold,
    run.lookalikeWouldHold,
    run.pricesWouldHold,
  ].filter((reason) => reason);
  return reasons.length > 0
    ? `  guard     a run without --dry-run would be held (exit 5): ${reasons.join('; ')}`
    : null;
}

/** `  not applied …` of the summary and `status`, or null when every accepted write was applied. */
export function notAppliedLine(c: ReturnType<typeof runCounts>): string | null {
  if (c.notApplied === 0) return null;
  return `  not applied ${countOf(c.notApplied, 'row')}: the API accepted the write but still shows the old value (see the note column)`;
}

/** `  still off …` of the summary and `status`, or null when no returning product keeps a `--missing` value. */
export function stillOffLine(c: ReturnType<typeof runCounts>): string | null {
  if (c.stillOff === 0) return null;
  return `  still off ${countOf(c.stillOff, 'product')} back in the source ${c.stillOff === 1 ? 'keeps' : 'keep'} a value --missing set, having none before to give back: see the note column`;
}

/** Beyond this, a time of day alone may read as the wrong day: the date is said too. */
const UNDATED_AHEAD_MS = 12 * 3_600_000;

/**
 * "00:00 UTC (in 3 h 12 min)": when a pause or a daily limit ends, as `run`, `ping`, `status` and
 * the dashboard say it. Dated ("2026-11-29 00:00 UTC (in …)") when the instant is on another day
 * (UTC) than now or more than 12 h away: `07:06 UTC (in 24 h 0 min)` read as now.
 */
export function untilText(until: number, now: number): string {
  const iso = new Date(until).toISOString();
  const day = iso.slice(0, 10);
  const undated = day === new Date(now).toISOString().slice(0, 10) && until - now <= UNDATED_AHEAD_MS;
  const at = undated ? iso.slice(11, 16) : `${day} ${iso.slice(11, 16)}`;
  return `${at} UTC (in ${formatDuration(Math.max(0, until - now))})`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  // Round once, at the precision shown, then split: 59,960 ms is "1 min 0 s", never "60.0 s".
  const tenths = Math.round(ms / 100);
  if (tenths < 600) return `${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  const minutes = Math.round(ms / 60_000);
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * How long the run took, as its headline says it. An approved run's end is its approval's
 * (held-rows.ts): from the run's start that would count the wait between the hold and `approve` (a
 * night), and from the start to the hold is the held run's own time, not what `approve` did. So it
 * is the approval's, with the held run's own beside it where the record has the hold's instant:
 * `812 ms by approve (the run was held after 555 ms)`. The approval's is that of the approve that
 * finished it: one that took over a round an earlier approve began and stopped (Ctrl-C at night,
 * finished in the morning) counts from its own start, and says when the earlier one began:
 * `1.2 s by approve (started by an earlier approve at 23:14 UTC; the run was held after 555 ms)`.
 */
function tookText(run: RunRecord): string {
  if (!run.finishedAt) return 'still running';
  // An approval's end is never before its start: a record whose end is the hold's still (an older
  // version approved it) says the run's own time, as it did then.
  if (run.approvedAt === undefined || run.finishedAt < run.approvedAt)
    return formatDuration(run.finishedAt - run.createdAt);
  // Taken over as the round's last writes settled: they were the earlier approve's, its start counts.
  const resumedAt =
    run.approvalResumedAt !== undefined && run.approvalResumedAt <= run.finishedAt
      ? run.approvalResumedAt
      : undefined;
  const asides = [
    resumedAt === undefined
      ? ''
      : `started by an earlier approve at ${clockText(run.approvedAt, run.finishedAt)}`,
    run.heldAt === undefined ? '' : `the run was held after ${formatDuration(run.heldAt - run.createdAt)}`,
  ].filter(Boolean);
  const aside = asides.length > 0 ? ` (${asides.join('; ')})` : '';
  return `${formatDuration(run.finishedAt - (resumedAt ?? run.approvedAt))} by approve${aside}`;
}

/** `23:14 UTC`, dated (`2026-11-27 23:14 UTC`) when not on the same day (UTC) as `reference`. */
function clockText(at: number, reference: number): string {
  const iso = new Date(at).toISOString();
  const sameDay = iso.slice(0, 10) === new Date(reference).toISOString().slice(0, 10);
  return `${sameDay ? '' : `${iso.slice(0, 10)} `}${iso.slice(11, 16)} UTC`;
}

/** How the run ended, after its id: `done in 2.1 s`, `held`, `superseded by run …`. */
function headline(run: RunRecord, took: string): string {
  // A run whose source broke half way is `done` too (enqueue-run.ts): it must not read as whole.
  if (run.aborted) return `ended early after ${took} (the source was not read to the end)`;
  if (run.endingEarly !== undefined)
    return 'ending early (the source was not read to the end): rows under way settle';
  if (run.state === 'done') return `done in ${took}`;
  if (run.state === 'cancelled' && run.supersededBy) return supersededText(run.supersededBy);
  return run.state;
}

/** A run cancelled by a later read of its source (queue/supersede.ts), as `run` and `status` say it. */
export function supersededText(by: string): string {
  return `superseded by run ${by} (a newer read of the same source)`;
}

/**
 * The summary `run` prints when a run settles: what a person reads the next morning. It quotes the
 * source's name and columns and what Redis holds: control characters are shown escaped. `connection`
 * is where a held run's `approve` line takes its options from (connection-words.ts): the process
 * that made the run gives its own; one that read the run from Redis, the hosts it allows.
 */
export function formatSummary(
  run: RunRecord,
  connection: HintConnection,
  detections: string[] = [],
  learned: LearnedLimit | null = null,
): string {
  const c = runCounts(run);
  const lines = [
    `run ${run.id}${run.dryRun ? ' (dry run: nothing written)' : ''}: ${headline(run, tookText(run))}`,
    `  source    ${run.source} (preset ${run.preset})`,
  ];
  for (const detection of detections) lines.push(`            ${detection}`);
  lines.push(`  rows      ${run.total}: ${rowOutcomes(run, c)}`);
  if (c.noted > 0)
    lines.push(
      `  notes     ${countOf(c.noted, 'row carries', 'rows carry')} a note: what the tool did beyond the action (report's note column)`,
    );
  const notApplied = notAppliedLine(c);
  if (notApplied) lines.push(notApplied);
  const stillOff = stillOffLine(c);
  if (stillOff) lines.push(stillOff);
  const absent = absentFieldsLine(run.absentFields);
  if (absent) lines.push(absent);
  const incremental = incrementalLine(run);
  if (incremental) lines.push(incremental);
  const deactivations = deactivationText(c);
  if (deactivations)
    lines.push(`  deactivate ${deactivations} (--missing: managed products gone from the source)`);
  const notDeactivated = missingNotAppliedLine(run);
  if (notDeactivated) lines.push(notDeactivated);
  const wouldHold = wouldHoldLine(run);
  if (wouldHold) lines.push(wouldHold);
  if (c.held > 0 || c.deactivateHeld > 0) {
    lines.push(`  held      ${run.heldReason ?? 'a guard held writes back'}`);
    const approve = approveLine(run, c, connection);
    if (approve) lines.push(approve);
  }
  const gone = c.missing - c.sameKey;
  if (gone > 0)
    lines.push(
      `  missing   ${countOf(gone, 'remote product is', 'remote products are')} not in the source (listed in the report)`,
    );
  if (c.sameKey > 0)
    lines.push(
      `  same key  ${countOf(c.sameKey, 'remote product has', 'remote products have')} the key of a source row that writes another product: not written (the report's note names it)`,
    );
  // A planned `--missing` deactivation is a PUT of the real run's too.
  lines.push(
    run.dryRun
      ? planLine(run, c.toCreate + c.toUpdate + c.toDeactivate, learned)
      : `  requests  ${requestsLine(run)}`,
  );
  if (c.invalid + c.failed > 0) lines.push(`  see       catalog-sync report ${run.id}`);
  return `${terminalSafe(lines.join('\n'))}\n`;
}
