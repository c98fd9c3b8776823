import type { RunSpec } from '../runs/run-store.js';
import { exceeds, readLimit, shareText } from './limits.js';

/**
 * A run with a guard plans every row before its first write (a whole-run guard must be decided
 * before anything is sent). A dry run writes nothing anyway: it is not guarded.
 */
export function isGuarded(spec: RunSpec): boolean {
  return !spec.dryRun && Boolean(spec.maxInvalid || spec.maxUpdates || spec.maxPriceChange);
}

/** What the plan found, for the whole-run guards. */
export interface PlanFigures {
  /** Source rows of the run. */
  rows: number;
  invalid: number;
  /** Updates the plan would send (price-held ones included: the feed asks for them). */
  updates: number;
  /** The seller's products as listed at the start of the run. */
  listed: number;
}

/** The one line of the whole-run guards that trip, or null when none does. */
export function wholeRunRefusal(spec: RunSpec, figures: PlanFigures): string | null {
  const reasons: string[] = [];
  if (spec.maxInvalid && exceeds(figures.invalid, figures.rows, readLimit(spec.maxInvalid))) {
    reasons.push(
      `--max-invalid ${spec.maxInvalid}: ${figures.invalid} of ${figures.rows} rows are invalid (${shareText(figures.invalid, figures.rows)})`,
    );
  }
  if (spec.maxUpdates && exceeds(figures.updates, figures.listed, readLimit(spec.maxUpdates))) {
    reasons.push(
      `--max-updates ${spec.maxUpdates}: the run would update ${figures.updates} of ${figures.listed} products (${shareText(figures.updates, figures.listed)})`,
    );
  }
  return reasons.length > 0 ? `${reasons.join('; ')}: nothing was sent` : null;
}

/** The run's held reason when only the row guard held rows back. */
export function rowGuardReason(spec: RunSpec, heldRows: number): string {
  return `--max-price-change ${spec.maxPriceChange}: ${heldRows} ${heldRows === 1 ? 'row' : 'rows'} held (price moved more)`;
}
