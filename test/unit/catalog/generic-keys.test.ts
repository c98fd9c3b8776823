import { describe, expect, it } from 'vitest';
import { createMapper, type MapperOptions } from '../../../src/catalog/index.js';
import { parseMapping } from '../../../src/catalog/mapping-file.js';
import type { MappedRow, SourceRecord } from '../../../src/interfaces.js';
import { iterate, mapRows } from './map-rows.js';

// A JSON or NDJSON source names its keys in each record, and exporters leave empty keys out: the
// generic preset read another platform's word (`stock`, `ean`) only where the FIRST record had it.
// The others sent `stock: "4"` as a text field, the quantity never written, and the summary said
// nothing. Each key is now read the same way in every record, whichever record brings it first.

const item = (row: number, values: Record<string, string>): SourceRecord => ({ row, line: row, values });

const ITEMS = [
  item(1, { sku: 'P1', name: 'a', price: '1' }),
  item(2, { sku: 'P2', name: 'b', price: '1', stock: '4' }),
  item(3, { sku: 'P3', name: 'c', price: '1', stock: '7', ean: '0012345678905' }),
];

/** The rows of `items` as an open source (JSON) gives them, and the mapper that made them. */
async function mapOpen(items: SourceRecord[], options: Partial<MapperOptions> = {}) {
  const first = items[0]!;
  const mapper = createMapper({
    columns: Object.keys(first.values),
    openColumns: true,
    sample: items,
    ...options,
  });
  const rows: MappedRow[] = [];
  for await (const row of mapper.map(iterate(items))) rows.push(row);
  return { mapper, rows };
}

const fieldsOf = (rows: MappedRow[]) =>
  new Map(rows.flatMap((row) => (row.kind === 'upsert' ? [[row.key, row.fields] as const] : [])));

describe("the generic preset's keys of a JSON source", () => {
  it('reads a word a later record brings as its field, as if the first record had it', async () => {
    const { rows } = await mapOpen(ITEMS);
    const fields = fieldsOf(rows);
    expect(fields.get('P2')).toEqual({ sku: 'P2', name: 'b', price: 1, quantity: 4 });
    expect(fields.get('P3')).toEqual({
      sku: 'P3',
      name: 'c',
      price: 1,
      quantity: 7,
      barcode: '0012345678905',
    });
  });

  it('reads each key the same whatever record comes first (one night and the next)', async () => {
    const night = fieldsOf((await mapOpen(ITEMS)).rows);
    const reordered = fieldsOf((await mapOpen([...ITEMS].reverse())).rows);
    expect(reordered).toEqual(night);
  });

  it('reads a word in another case a later record brings (Stock), and a field in another case (Price)', async () => {
    const { rows } = await mapOpen([
      item(1, { sku: 'P1', price: '1', stock: '2' }),
      item(2, { sku: 'P2', Price: '3', Stock: '5', QTY: '' }),
    ]);
    expect(fieldsOf(rows).get('P2')).toEqual({ sku: 'P2', price: 3, quantity: 5 });
  });

  it('says in the summary each key so read, those first met in a later record too', async () => {
    const { mapper } = await mapOpen(ITEMS);
    expect(mapper.detections).toContain('columns read as product fields: stock as quantity, ean as barcode');
  });

  it('knows a word as read before any record brings it: an option naming it is refused', () => {
    const mapper = createMapper({ columns: ['sku', 'name', 'price'], openColumns: true });
    expect(mapper.readAs.get('stock')).toBe('quantity');
    expect(mapper.readAs.has('Price')).toBe(true);
    expect(mapper.readAs.has('color')).toBe(false);
    expect(() =>
      createMapper({ columns: ['sku', 'name', 'price'], openColumns: true, fields: ['sku', 'stock'] }),
    ).toThrow("--fields: stock: this source's stock column is read as quantity: name quantity");
  });

  it("reads a field's own name before a word beside it, and sends the word under its own name", async () => {
    const { rows } = await mapOpen([
      item(1, { sku: 'P1', price: '1' }),
      item(2, { sku: 'P2', quantity: '5', stock: 'in stock' }),
      item(3, { sku: 'P3', stock: '6' }),
    ]);
    expect(rows[1]).toMatchObject({ kind: 'upsert', fields: { sku: 'P2', quantity: 5, stock: 'in stock' } });
    expect(rows[2]).toMatchObject({ kind: 'upsert', fields: { sku: 'P3', quantity: 6 } });
  });

  it('reads the field in another case before a word beside it, as a CSV header does', async () => {
    const { rows } = await mapOpen([
      item(1, { sku: 'J1', name: 'Jar 1', price: '2', Quantity: '5', stock: 'in stock' }),
      item(2, { SKU: 'K1', Name: 'Kettle', title: 'Kettle 1.7 l steel', Price: '20', qty: '3' }),
    ]);
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { quantity: 5, stock: 'in stock' } });
    expect(rows[1]).toMatchObject({
      kind: 'upsert',
      key: 'K1',
      fields: { sku: 'K1', name: 'Kettle', title: 'Kettle 1.7 l steel', price: 20, quantity: 3 },
    });
  });

  it('refuses a record whose two words give one field different values, under its key', async () => {
    const { rows } = await mapOpen([
      item(1, { sku: 'P1', price: '1' }),
      item(2, { sku: 'P2', qty: '5', stock: '4' }),
      item(3, { sku: 'P3', stock: '6', qty: '6' }),
    ]);
    expect(rows[1]).toEqual({
      kind: 'invalid',
      row: 2,
      line: 2,
      key: 'P2',
      reason:
        'quantity given twice, with different values: by qty read as quantity, and by stock read as quantity (docs/sources.md)',
    });
    // The same value twice is the value.
    expect(rows[2]).toMatchObject({ kind: 'upsert', fields: { sku: 'P3', quantity: 6 } });
  });

  it('claims no key for a record whose two keys give two different SKUs and no own name', async () => {
    const { rows } = await mapOpen([item(1, { sku: 'P1', price: '1' }), item(2, { SKU: 'P2', Sku: 'P9' })]);
    expect(rows[1]).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('sku given twice') });
    expect(rows[1]).not.toHaveProperty('key');
  });

  it('keys a record by its own sku beside another case of it, sent under its own name', async () => {
    const { rows } = await mapOpen([item(1, { sku: 'P1', price: '1' }), item(2, { sku: 'P2', SKU: 'P9' })]);
    expect(rows[1]).toMatchObject({ kind: 'upsert', key: 'P2', fields: { sku: 'P2', SKU: 'P9' } });
  });
});

describe("the generic preset's words beside a mapping file", () => {
  it('does not read a column the mapping file sends as a field of its own (stock: {custom: true})', async () => {
    const mapping = parseMapping(
      'preset: generic\nfields:\n  stock: { column: stock, custom: true }\n',
      'm.yml',
      'yaml',
    );
    const rows = await mapRows(['sku', 'price', 'stock'], [['A-1', '5', 'In stock']], { mapping });
    expect(rows).toEqual([
      expect.objectContaining({ kind: 'upsert', fields: { sku: 'A-1', price: 5, stock: 'In stock' } }),
    ]);
    const mapper = createMapper({ columns: ['sku', 'price', 'stock'], mapping });
    expect(mapper.detections.join('\n')).not.toContain('stock as quantity');
    expect(mapper.readAs.has('stock')).toBe(false);
    // A JSON source: the same.
    const { rows: open } = await mapOpen(
      [item(1, { sku: 'A-1', price: '5' }), item(2, { sku: 'A-2', price: '5', stock: 'In stock' })],
      { mapping },
    );
    expect(fieldsOf(open).get('A-2')).toEqual({ sku: 'A-2', price: 5, stock: 'In stock' });
  });

  it('says only the columns it reads when the mapping file gives their fields from others', async () => {
    const mapping = parseMapping(
      'preset: generic\nfields:\n  name: Titel\n  price: Preis\n',
      'm.yml',
      'yaml',
    );
    const columns = ['SKU', 'Name', 'Price', 'Titel', 'Preis'];
    const mapper = createMapper({ columns, mapping });
    expect(mapper.detections).toContain('columns read as product fields: SKU as sku');
    expect(mapper.detections).toContain(
      'columns sent under their own name, the mapping file giving their field: Name (name), Price (price)',
    );
    const [row] = await mapRows(columns, [['A-1', 'Alt', '9', 'Tasse', '5']], { mapping });
    expect(row).toMatchObject({ kind: 'upsert', fields: { sku: 'A-1', name: 'Tasse', price: 5 } });
  });
});
