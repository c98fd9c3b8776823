import { createMapper, type MapperOptions } from '../../../src/catalog/index.js';
import type { MappedRow, SourceRecord } from '../../../src/interfaces.js';

/** The Magento columns the preset's tests write rows for (configurable_variations lists children). */
export const MAGENTO_COLUMNS = [
  'sku',
  'store_view_code',
  'product_type',
  'name',
  'price',
  'product_online',
  'visibility',
  'description',
  'configurable_variations',
];

/** A Magento configurable (MAGENTO_COLUMNS) that lists the simples H-S and H-M as its variations. */
export const MAGENTO_HOODIE = [
  'H',
  '',
  'configurable',
  'Hoodie',
  '',
  '1',
  'Catalog, Search',
  'Warm',
  'sku=H-S,size=S|sku=H-M,size=M',
];

/** Records as a CSV reader would give them: header + rows of cells, row numbers from 1. */
export function records(columns: string[], rows: string[][]): SourceRecord[] {
  return rows.map((cells, i) => ({
    row: i + 1,
    line: i + 2,
    values: Object.fromEntries(columns.map((column, j) => [column, cells[j] ?? ''])),
  }));
}

/** The items as an async source, as a reader gives records. */
export async function* iterate<T>(items: T[]): AsyncIterable<T> {
  for (const item of items) yield item;
}

export async function mapRows(
  columns: string[],
  rows: string[][],
  options: Partial<MapperOptions> = {},
): Promise<MappedRow[]> {
  const mapper = createMapper({ columns, ...options });
  const out: MappedRow[] = [];
  for await (const row of mapper.map(iterate(records(columns, rows)))) out.push(row);
  return out;
}

export async function mapRecords(
  columns: string[],
  input: SourceRecord[],
  options: Partial<MapperOptions> = {},
): Promise<MappedRow[]> {
  const mapper = createMapper({ columns, ...options });
  const out: MappedRow[] = [];
  for await (const row of mapper.map(iterate(input))) out.push(row);
  return out;
}
