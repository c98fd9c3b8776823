import { countOf } from '../count-words.js';
import type { RunSpec } from '../runs/run-store.js';
import { exceeds, readLimit, shareText } from './limits.js';

/**
 * A run with a guard plans every row before its first write (a whole-run guard must be decided
 * before anything is sent). A dry run writes nothing anyway: it is not guarded.
 */
export function isGuarded(spec: RunSpec): boolean {
  return !spec.dryRun && Boolean(spec.maxInvalid || spec.maxUpdates || spec.maxPriceChange);
}

/** `--max-missing` when not given: a feed that drops more than a fifth of the catalog looks truncated. */
export const DEFAULT_MAX_MISSING = '20%';

/**
 * A run that plans every row before its first write: a guarded run; a run that needed more than
 * the day's remaining quota when it started (`planFirst`: its writes go out by `--first`, and it
 * holds nothing; issue 14); a `--missing` run whose deactivations `--max-missing` weighs
 * (`missingGuarded`, decided with its list read: missing/missing-guard.ts); or a run whose list read
 * found products without a SKU the tool has no record of (`lookalikeGuarded`: a create of a row
 * with a derived key may duplicate one, lookalike-creates.ts).
 */
export function isPlanned(
  spec: RunSpec & { planFirst?: boolean; missingGuarded?: boolean; lookalikeGuarded?: boolean },
): boolean {
  if (isGuarded(spec)) return true;
  if (spec.dryRun) return false;
  return spec.planFirst === true || spec.missingGuarded === true || spec.lookalikeGuarded === true;
}

/** What the plan found, for the whole-run guards. */
export interface PlanFigures {
  /** Source rows of the run. */
  rows: number;
  invalid: number;
  /** Updates the plan would send (price-held ones included: the feed asks for them). */
  updates: number;
  /**
   * The seller's products as listed at the start of the run (as the tool's record holds them when
   * an `--incremental` run did not read the list).
   */
  listed: number;
  /**
   * The deactivations `--missing` would send, and the managed products they are weighed against;
   * null when the run deactivates nothing (no `--missing`, or it cannot apply: missing/verdict.ts).
   * `keyless`: why they may not go without `approve` whatever their number (source rows with no
   * key, any of which may stand for a product found gone: missing/verdict.ts keylessText).
   */
  missing: { due: number; managed: number; keyless?: string | null } | null;
  /**
   * Why the run's creates may not go without `approve`: rows with a derived key named as listed
   * products without a SKU the tool has no record of (lookalike-creates.ts), or null for none.
   */
  lookalikes?: string | null;
}

/**
 * The one line of the whole-run guards that trip, or null when none does. It is every held row's
 * `error` too: it starts with the figures, so that no report cell starts with `-` (csv-guard.ts).
 */
export function wholeRunRefusal(spec: RunSpec, figures: PlanFigures): string | null {
  const reasons = wholeRunReasons(spec, figures);
  return reasons.length > 0 ? `${reasons.join('; ')}: nothing was sent` : null;
}

/**
 * Each whole-run guard that trips, in the words of its hold: a real run's verdict (wholeRunRefusal),
 * and what a dry run says the real run would be held for (dry-run-verdict.ts).
 */
export function wholeRunReasons(
  spec: Pick<RunSpec, 'maxInvalid' | 'maxUpdates' | 'maxMissing'>,
  figures: PlanFigures,
): string[] {
  const reasons: string[] = [];
  if (spec.maxInvalid && exceeds(figures.invalid, figures.rows, readLimit(spec.maxInvalid))) {
    reasons.push(
      `${figures.invalid} of ${countOf(figures.rows, 'row')} ${figures.invalid === 1 ? 'is' : 'are'} invalid (${shareText(figures.invalid, figures.rows)}), more than --max-invalid ${spec.maxInvalid}`,
    );
  }
  if (spec.maxUpdates && exceeds(figures.updates, figures.listed, readLimit(spec.maxUpdates))) {
    reasons.push(
      `${figures.updates} of ${countOf(figures.listed, 'product')} would be updated (${shareText(figures.updates, figures.listed)}), more than --max-updates ${spec.maxUpdates}`,
    );
  }
  const missing = figures.missing;
  const maxMissing = spec.maxMissing ?? DEFAULT_MAX_MISSING;
  if (missing && exceeds(missing.due, missing.managed, readLimit(maxMissing))) {
    reasons.push(maxMissingText(missing.due, missing.managed, maxMissing));
  }
  // Held as --max-missing holds: the whole run (CONTRACT), its deactivations with it.
  if (missing?.keyless && missing.due > 0) reasons.push(missing.keyless);
  if (figures.lookalikes) reasons.push(figures.lookalikes);
  return reasons;
}

/** `5 of 10 managed products would be deactivated (50%), more than --max-missing 20%`. */
export function maxMissingText(due: number, managed: number, limit: string): string {
  return `${due} of ${countOf(managed, 'managed product')} would be deactivated (${shareText(due, managed)}), more than --max-missing ${limit}`;
}

/** The run's held reason when only the row guard held rows back. */
export function rowGuardReason(spec: Pick<RunSpec, 'maxPriceChange'>, heldRows: number): string {
  const rows = heldRows === 1 ? '1 row held: its price moves' : `${heldRows} rows held: their prices move`;
  return `${rows} more than --max-price-change ${spec.maxPriceChange}`;
}
