import { countOf } from '../count-words.js';
import { exceeds, readLimit, shareText } from '../guards/limits.js';
import type { RunRecord } from '../runs/run-store.js';

/** `--max-missing` when not given: a feed that drops more than a fifth of the catalog looks truncated. */
export const DEFAULT_MAX_MISSING = '20%';

/** Run record field: why `--missing` was given and not applied (partialRead), said in the summary. */
export const MISSING_NOT_APPLIED = 'missingNotApplied';

/** partialRead's reason for a run whose source was not read to the end (ended early: enqueue-run.ts). */
export const NOT_READ_TO_END = 'the source was not read to the end';

/**
 * Why this run may not deactivate anything although `--missing` was given, or null when it may: a
 * run that read only part of its source cannot tell a product gone from one it did not read, nor
 * one that read no product (`--incremental` relying on its record) a product gone from the source.
 */
export function partialRead(
  run: Pick<RunRecord, 'aborted' | 'only' | 'state' | 'cancelledAt' | 'fieldsRefused'>,
  listFailed: boolean,
  listSkipped = false,
): string | null {
  if (run.aborted) return NOT_READ_TO_END;
  // The list was read: a field name no listed product shows refused the run before any write.
  if (run.fieldsRefused) return `the run was refused: ${run.fieldsRefused}`;
  // Finalised while `cancel` ends it: the state says `cancelled` only once the run has ended.
  if (run.state === 'cancelled' || run.cancelledAt !== undefined) return 'the run was cancelled';
  if (run.only) return `--only ${run.only} leaves rows out`;
  if (listFailed) return "the seller's products could not be read";
  if (listSkipped)
    return 'no product list read (--incremental relied on its record): the next full read applies it (a run without --incremental, or once the record is older than --full-read-after)';
  return null;
}

export type DeactivationVerdict =
  | { kind: 'send' }
  | { kind: 'planned' }
  | { kind: 'held'; reason: string; own: boolean };

/**
 * What becomes of the deactivations a run found due: planned (a dry run), held (more than
 * `--max-missing` of the managed products, or the run is held by another guard already), or sent.
 */
export function deactivationVerdict(
  run: Pick<RunRecord, 'dryRun' | 'maxMissing'>,
  figures: { due: number; managed: number; runHeldFor: string | null },
): DeactivationVerdict {
  if (run.dryRun) return { kind: 'planned' };
  const limit = run.maxMissing ?? DEFAULT_MAX_MISSING;
  if (exceeds(figures.due, figures.managed, readLimit(limit))) {
    const share = shareText(figures.due, figures.managed);
    return {
      kind: 'held',
      own: true,
      reason: `${figures.due} of ${countOf(figures.managed, 'managed product')} would be deactivated (${share}), more than --max-missing ${limit}: no deactivation was sent`,
    };
  }
  if (figures.runHeldFor)
    return { kind: 'held', own: false, reason: `held with the run: ${figures.runHeldFor}` };
  return { kind: 'send' };
}
