import type { MappedRow, ProductUpsert, RowOutcome } from '../interfaces.js';

/**
 * The outcome of a row that needs no request (invalid, skipped, merged into another): the producer
 * settles it as it reads it.
 */
export function settledAtOnce(row: Exclude<MappedRow, ProductUpsert>): RowOutcome {
  const outcome = (
    action: RowOutcome['action'],
    status: RowOutcome['status'],
    error: string,
  ): RowOutcome => ({
    row: row.row,
    key: row.key ?? '',
    action,
    productId: null,
    status,
    error,
  });
  if (row.kind === 'invalid') return outcome('invalid', 'failed', row.reason);
  // Left out on purpose (the source does not sell it so): ok, with the reason, like a merged row.
  if (row.kind === 'skipped') return outcome('skipped', 'ok', row.reason);
  // A merged row carries no product of its own; the error column says where it went (the presets'
  // reasons mostly name the row already: it is not said twice).
  const named = new RegExp(`\\brow ${row.intoRow}\\b`).test(row.reason);
  return outcome('merged', 'ok', named ? row.reason : `merged into row ${row.intoRow}: ${row.reason}`);
}
