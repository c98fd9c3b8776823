import type { RunRecord } from './run-store.js';

/** What a held run still holds, as the summary and `status` count it. */
interface Held {
  /** Rows a guard held back. */
  held: number;
  /** `--missing` deactivations held back (with the run, or by `--max-missing`). */
  deactivateHeld: number;
}

/**
 * The `approve` line of a run holding writes, or null when it holds nothing. `--rows` is named
 * only while rows are held: a held deactivation has no row number, and `--rows` of a run holding
 * none is refused.
 */
export function approveLine(run: Pick<RunRecord, 'id'>, c: Held): string | null {
  if (c.held > 0)
    return `  approve   catalog-sync approve ${run.id}   (sends the held writes; --rows 3,7 for some)`;
  if (c.deactivateHeld > 0)
    return `  approve   catalog-sync approve ${run.id}   (sends the held deactivations)`;
  return null;
}
