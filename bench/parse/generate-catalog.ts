import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** The generic catalog's columns. */
export const GENERIC_COLUMNS = ['sku', 'name', 'price', 'quantity', 'brand', 'description'];

/**
 * Row `i` (from 1) of the generic catalog, its values as written: a share of non-ASCII text and of
 * names with commas, prices with two decimals, a blank brand now and then.
 */
export function genericRowValues(i: number): string[] {
  return [
    `SKU-${String(i).padStart(7, '0')}`,
    i % 10 === 0 ? `Münsterländer ${i}, 0,5 Liter` : `Product ${i}`,
    `${(i % 997) + 1}.${String(i % 100).padStart(2, '0')}`,
    String(i % 50),
    i % 7 === 0 ? '' : 'Acme',
    'A product, described in a few words',
  ];
}

/** A value as a CSV cell: quoted when it holds a comma (none of the catalog's holds a quote). */
const cell = (value: string) => (value.includes(',') ? `"${value}"` : value);

/** Writes a generic catalog CSV of `rows` products (genericRowValues), streamed: memory stays flat. */
export async function writeGenericCatalog(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(`${GENERIC_COLUMNS.join(',')}\n`);
  let batch = '';
  for (let i = 1; i <= rows; i++) {
    batch += `${genericRowValues(i).map(cell).join(',')}\n`;
    if (i % 1000 === 0) {
      await write(batch);
      batch = '';
    }
  }
  await write(batch);
  out.end();
  await once(out, 'finish');
}
