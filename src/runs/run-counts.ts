import { MAX_RUN_ROWS } from '../defaults.js';
import { quoteForMessage } from '../terminal-safe.js';
import { UsageError } from '../usage-error.js';

/**
 * A count of a run record (`total`, `settled`) that catalog-sync could not have written: not a
 * whole number, or above MAX_RUN_ROWS. One line naming the run and the field, exit 2.
 */
export class RunCountRefused extends UsageError {
  override name = 'RunCountRefused';
}

/**
 * A row count read from a run record, checked before anything loops over it or allocates by it:
 * Redis is not trusted, and `total 1e308` made `report` run for ever. Absent is 0.
 */
export function runCount(runId: string, field: string, stored: string | undefined): number {
  if (stored === undefined) return 0;
  const count = /^\d{1,9}$/.test(stored) ? Number(stored) : Number.NaN;
  if (Number.isSafeInteger(count) && count <= MAX_RUN_ROWS) return count;
  throw new RunCountRefused(
    `run ${runId}'s record in Redis holds ${field} "${quoteForMessage(stored, 40)}", not a row count catalog-sync writes (a whole number up to ${MAX_RUN_ROWS.toLocaleString('en-US')}): refused`,
  );
}
