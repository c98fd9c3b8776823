import { exceeds, readLimit } from '../guards/limits.js';
import { DEFAULT_MAX_MISSING, maxMissingText } from '../guards/verdict.js';
import { NOT_READ_TO_THE_END } from '../runs/ended-state.js';
import type { KeylessRows } from '../runs/keyless-rows.js';
import type { RunRecord } from '../runs/run-store.js';

/** Run record field: why `--missing` was given and not applied (partialRead), said in the summary. */
export const MISSING_NOT_APPLIED = 'missingNotApplied';

/** partialRead's reason for a run whose source was not read to the end (ended early: enqueue-run.ts). */
export const NOT_READ_TO_END = NOT_READ_TO_THE_END;

/**
 * Why this run may not deactivate anything although `--missing` was given, or null when it may: a
 * run that read only part of its source cannot tell a product gone from one it did not read, nor
 * one that read no product (`--incremental` relying on its record) a product gone from the source.
 */
export function partialRead(
  run: Pick<RunRecord, 'aborted' | 'only' | 'state' | 'cancelledAt' | 'fieldsRefused'>,
  listFailed: boolean,
  listSkipped = false,
  /** Why no chunk read the list, when Redis lost them all first (queue/list-never-read.ts). */
  listNeverRead: string | null = null,
): string | null {
  if (run.aborted) return NOT_READ_TO_END;
  // The list was read: a field name no listed product shows refused the run before any write.
  if (run.fieldsRefused) return `the run was refused: ${run.fieldsRefused}`;
  // Finalised while `cancel` ends it: the state says `cancelled` only once the run has ended.
  if (run.state === 'cancelled' || run.cancelledAt !== undefined) return 'the run was cancelled';
  if (run.only) return `--only ${run.only} leaves rows out`;
  if (listFailed) return "the seller's products could not be read";
  if (listNeverRead) return listNeverRead;
  if (listSkipped)
    return 'no product list read (--incremental relied on its record): the next full read applies it (a run without --incremental, or once the record is older than --full-read-after)';
  return null;
}

/** Run record field: a dry run's deactivations over `--max-missing`: what the real run would be held for. */
export const MISSING_WOULD_HOLD = 'missingWouldHold';

/**
 * Why the deactivations due may not go without `approve` whatever their number, or null: the
 * source has rows with no key, or none the tool can trust (keyless-rows.ts), and any product found
 * gone may be one of theirs. `row 53 has no sku: the product it stands for may be among the 3
 * missing`; `row 53's sku 1.23457E+08 is not a key the tool can trust: …`.
 */
export function keylessText(run: Pick<RunRecord, 'keyless' | 'matchBy'>, due: number): string | null {
  const keyless = run.keyless;
  if (!keyless || due === 0) return null;
  const one = keyless.count === 1;
  const subject = one ? 'the product it stands for' : 'the products they stand for';
  return `${keylessRowsText(keyless, run.matchBy)}: ${subject} may be among the ${due} missing`;
}

/**
 * What the rows lack, true of each: a row that keeps a key it cannot trust has one, so the rows
 * then have no key "the tool can trust", and the named ones show theirs.
 */
function keylessRowsText(keyless: KeylessRows, matchBy: string): string {
  const { count, rows, untrusted = 0, keys = {} } = keyless;
  if (untrusted === 0)
    return `${rowsNamed(count, rows.map(String))} ${count === 1 ? 'has' : 'have'} no ${matchBy}`;
  const key = (row: number | undefined) => (row === undefined ? undefined : keys[row]);
  if (count === 1) {
    const shown = key(rows[0]);
    return `row ${rows[0] ?? '?'}'s ${matchBy}${shown === undefined ? '' : ` ${shown}`} is not a key the tool can trust`;
  }
  const named = rows.map((row) => {
    const shown = key(row);
    return shown === undefined ? String(row) : `${row} (${matchBy} ${shown})`;
  });
  return `${rowsNamed(count, named)} have no ${matchBy} the tool can trust`;
}

/** `row 53`, `rows 53 and 60`, `rows 53, 60, 71 and 5 more`. */
function rowsNamed(count: number, rows: string[]): string {
  if (count === 1) return `row ${rows[0] ?? '?'}`;
  if (rows.length === 0) return `${count} rows`;
  const more = count - rows.length;
  const named = more > 0 ? [...rows, `${more} more`] : [...rows];
  const last = named.pop();
  return `rows ${named.join(', ')} and ${last}`;
}

/**
 * A dry run holds nothing, but its summary says when the real run would be held: by `--max-missing`
 * (given, or the default one nobody typed: the figures line), or by rows with no key
 * (keylessText); null when neither would hold it.
 */
export function wouldHoldText(
  run: Pick<RunRecord, 'maxMissing' | 'keyless' | 'matchBy'>,
  figures: { due: number; managed: number },
): string | null {
  const given = run.maxMissing ?? null;
  const limit = given ?? DEFAULT_MAX_MISSING;
  const named = given === null ? `${limit} (default)` : limit;
  const reasons = [
    exceeds(figures.due, figures.managed, readLimit(limit))
      ? maxMissingText(figures.due, figures.managed, named)
      : null,
    keylessText(run, figures.due),
  ].filter((reason) => reason !== null);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

export type DeactivationVerdict =
  | { kind: 'send' }
  | { kind: 'planned' }
  | { kind: 'held'; reason: string; own: boolean };

/**
 * What becomes of the deactivations a run found due at its end: planned (a dry run), held with the
 * run (a guard held it: `--max-missing` itself, or rows with no key, decided with the run's other
 * guards once every row was planned, guards/decide.ts, or another guard), or sent. A run held for
 * its deactivations gives their lines the run's reason as it is; another guard's is said as held
 * with it. More than `--max-missing`, or rows with no key, at the end of a run that was not held
 * holds the deactivations alone: a run whose verdict was not weighed against them (one begun before
 * the guard held whole runs).
 */
export function deactivationVerdict(
  run: Pick<RunRecord, 'dryRun' | 'maxMissing' | 'keyless' | 'matchBy'>,
  figures: { due: number; managed: number; runHeldFor: string | null },
): DeactivationVerdict {
  if (run.dryRun) return { kind: 'planned' };
  const limit = run.maxMissing ?? DEFAULT_MAX_MISSING;
  const tripped = exceeds(figures.due, figures.managed, readLimit(limit));
  const keyless = keylessText(run, figures.due);
  if (figures.runHeldFor) {
    const own = tripped || keyless !== null;
    const reason = own ? figures.runHeldFor : `held with the run: ${figures.runHeldFor}`;
    return { kind: 'held', own: false, reason };
  }
  if (tripped || keyless !== null) {
    const reasons = [tripped ? maxMissingText(figures.due, figures.managed, limit) : null, keyless];
    const reason = `${reasons.filter((text) => text !== null).join('; ')}: no deactivation was sent`;
    return { kind: 'held', own: true, reason };
  }
  return { kind: 'send' };
}
