import { writeFile } from 'node:fs/promises';

/** One product of the generated catalog, as its generic-preset CSV row carries it. */
export interface CatalogRow {
  sku: string;
  name: string;
  price: string;
  quantity: number;
  description: string;
}

const sku = (i: number) => `SKU-${String(i).padStart(6, '0')}`;

function row(i: number): CatalogRow {
  return {
    sku: sku(i),
    name: i % 10 === 0 ? `Münsterländer ${i}, 0,5 Liter` : `Product ${i}`,
    // Two decimals as exports write them ("12.50"): the re-run must see them equal to the API's 12.5.
    price: `${(i % 997) + 1}.${String((i * 7) % 100).padStart(2, '0')}`,
    quantity: i % 50,
    description: `A product, described in a few words (${i})`,
  };
}

export function generateRows(count: number): CatalogRow[] {
  return Array.from({ length: count }, (_, i) => row(i + 1));
}

/**
 * An export an API that normalizes keeps in a form of its own: names with runs of inner spaces (the
 * generic preset trims only the ends), prices with 3 or 4 decimals whose last digit is not 0, so
 * neither is stored as sent. Row 1's price has 4 decimals, so the source reads `.` as the decimal
 * point from the start (`1.234` alone could be a thousands separator).
 */
export function generateUntidyRows(count: number): CatalogRow[] {
  return generateRows(count).map((r, index) => {
    const i = index + 1;
    const cents = String((i * 7) % 100).padStart(2, '0');
    const more = i % 2 === 1 ? `${(i % 9) + 1}${(i % 7) + 1}` : `${(i % 9) + 1}`;
    return {
      ...r,
      name: r.name.replace(/ /g, i % 3 === 0 ? '   ' : '  '),
      price: `${(i % 997) + 1}.${cents}${more}`,
    };
  });
}

/**
 * The next day's export: every `1 / changedShare`-th row with a new price, then `newShare * rows`
 * new products at the end. Returns the rows and how many of each it made.
 */
export function nextExport(rows: CatalogRow[], changedShare: number, newShare: number) {
  const every = Math.round(1 / changedShare);
  let changed = 0;
  const next = rows.map((r, i) => {
    if ((i + 1) % every !== 0) return r;
    changed++;
    return { ...r, price: `${Number.parseInt(r.price, 10) + 1}.99` };
  });
  const added = Math.round(rows.length * newShare);
  for (let i = 1; i <= added; i++) next.push(row(rows.length + i));
  return { rows: next, changed, added };
}

const cell = (value: string | number) => {
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export async function writeCatalogCsv(path: string, rows: CatalogRow[]): Promise<void> {
  const lines = ['sku,name,price,quantity,description'];
  for (const r of rows) lines.push([r.sku, r.name, r.price, r.quantity, r.description].map(cell).join(','));
  await writeFile(path, `${lines.join('\n')}\n`);
}
