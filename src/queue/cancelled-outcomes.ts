import type { RowOutcome } from '../interfaces.js';

/** Rows of a cancelled run never sent: left out on purpose (`skipped`, status ok), said why. */
export function cancelledOutcomes(rows: ReadonlyArray<{ row: number; key: string }>): RowOutcome[] {
  return rows.map((row) => ({
    row: row.row,
    key: row.key,
    action: 'skipped',
    productId: null,
    status: 'ok',
    error: 'cancelled',
  }));
}
