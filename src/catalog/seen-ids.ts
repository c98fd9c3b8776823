import type { MappedRow } from '../interfaces.js';
import { SeenKeys } from './seen-keys.js';

/**
 * The `id` column's duplicate check (the generic preset reads it as the marketplace's product id,
 * docs/sources.md): two rows naming one product would both be written to it, the second over the
 * first. The later one is invalid, naming the first, as a duplicate key is (validate.ts).
 */
export class SeenIds {
  private seen: SeenKeys | null = null;

  check(row: MappedRow): MappedRow {
    if (row.kind !== 'upsert' || row.id === undefined) return row;
    // Made at the first id: a source without the column holds no table for it.
    this.seen ??= new SeenKeys();
    const first = this.seen.firstRow(row.id, row.row);
    if (first === undefined) return row;
    const reason = `duplicate id "${row.id}": first seen in row ${first}`;
    return { kind: 'invalid', row: row.row, line: row.line, key: row.key, reason };
  }
}
