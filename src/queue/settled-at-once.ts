import type { MappedRow, ProductUpsert, RowOutcome } from '../interfaces.js';

/**
 * The outcome of a row that needs no request (invalid, skipped, merged into another): the producer
 * settles it as it reads it.
 */
export function settledAtOnce(row: Exclude<MappedRow, ProductUpsert>): RowOutcome {
  if (row.kind === 'invalid') {
    return {
      row: row.row,
      key: row.key ?? '',
      action: 'invalid',
      productId: null,
      status: 'failed',
      error: row.reason,
    };
  }
  if (row.kind === 'skipped') {
    // Left out on purpose (the source does not sell it so): ok, with the reason, like a merged row.
    return {
      row: row.row,
      key: row.key ?? '',
      action: 'skipped',
      productId: null,
      status: 'ok',
      error: row.reason,
    };
  }
  // A merged row carries no product of its own; the error column says where it went (the presets'
  // reasons mostly name the row already: it is not said twice).
  const named = new RegExp(`\\brow ${row.intoRow}\\b`).test(row.reason);
  return {
    row: row.row,
    key: row.key,
    action: 'merged',
    productId: null,
    status: 'ok',
    error: named ? row.reason : `merged into row ${row.intoRow}: ${row.reason}`,
  };
}
