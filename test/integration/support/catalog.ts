import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** One source row as the user writes it in a generic CSV: every value a string. */
export interface CatalogRow {
  sku: string;
  name: string;
  price: string;
  [column: string]: string;
}

// Names that must travel intact: accents, CJK, emoji, a comma and quotes (CSV quoting).
const NAMES = [
  'Crème brûlée – 1 kg',
  'Kaffeebohnen „Größe“ 500 g',
  '抹茶 – 100 g',
  'Tea, "Earl Grey"',
  'Chocolat Ōsaka 🍫',
  'Plain lamp',
];

/** `count` rows with skus SKU-<n> from `first`, prices with two decimals (some ending in 0). */
export function catalogRows(count: number, first = 1): CatalogRow[] {
  return Array.from({ length: count }, (_, i) => {
    const n = first + i;
    return {
      sku: `SKU-${String(n).padStart(5, '0')}`,
      name: `${NAMES[n % NAMES.length]} #${n}`,
      price: `${n % 97}.${String(n % 10).padStart(1, '0')}0`,
    };
  });
}

/**
 * R-1…R-4, each priced n × 10 + `bump` with 4 in stock: the approval tests' catalog (`bump` 0 seeds
 * it, 1 changes every price, four updates for a guard to hold).
 */
export function fourPricedRows(bump: number): CatalogRow[] {
  return [1, 2, 3, 4].map((n) => ({
    sku: `R-${n}`,
    name: `R ${n}`,
    price: String(n * 10 + bump),
    quantity: '4',
  }));
}

/** Writes rows as a CSV with a header (columns: the first row's, unless given); resolves to its path. */
export async function writeCsv(
  dir: string,
  name: string,
  rows: CatalogRow[],
  columns: string[] = Object.keys(rows[0] ?? {}),
): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, stringify(rows, { header: true, columns }), 'utf8');
  return path;
}

/** A report (or any CSV with a header) as objects by column. */
export function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

/** The price a source cell means, as the API stores it: a JSON number. */
export function priceNumber(cell: string): number {
  return Number(cell);
}
