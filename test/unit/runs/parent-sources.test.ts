import { describe, expect, it } from 'vitest';
import { createMapper } from '../../../src/catalog/index.js';
import { type ChunkJobData, packSources, sourcesByRow } from '../../../src/runs/chunk-job.js';
import { type ParentSource, type RowSource, SourceRowCapture } from '../../../src/runs/source-rows.js';
import { mapRealFile } from '../../fixtures-real/map-real-file.js';
import { iterate, MAGENTO_COLUMNS, MAGENTO_HOODIE, records } from '../catalog/map-rows.js';

/** The capture always gives a parent's values (only stored forms name a parent by its row alone). */
const withValues = (parents: (ParentSource | number)[]) =>
  parents.map((parent) => (typeof parent === 'number' ? { row: parent, values: [] } : parent));

/** The rows each row takes product fields from, as `run` carries them for `report --failed-only`. */
function parentRows(sources: Map<number, RowSource>): Record<number, number[]> {
  const byRow: Record<number, number[]> = {};
  for (const [row, source] of sources)
    if (!Array.isArray(source)) byRow[row] = withValues(source.parents).map((parent) => parent.row);
  return byRow;
}

/** Each parent's values are the values its own row was taken with. */
function expectParentsAsTaken(sources: Map<number, RowSource>): void {
  const own = (row: number) => {
    const source = sources.get(row);
    return Array.isArray(source) ? source : source?.values;
  };
  for (const source of sources.values())
    if (!Array.isArray(source))
      for (const parent of withValues(source.parents)) expect(parent.values).toEqual(own(parent.row));
}

/** Synthetic rows (the real exports of these platforms hold no variants) through mapper and capture. */
async function capturedRows(columns: string[], rows: string[][]): Promise<Map<number, RowSource>> {
  return (await captured(columns, rows)).sources;
}

async function captured(columns: string[], rows: string[][]) {
  const mapper = createMapper({ columns });
  const capture = new SourceRowCapture(columns);
  const sources = new Map<number, RowSource>();
  for await (const row of mapper.map(capture.tap(iterate(records(columns, rows))), capture)) {
    const taken = capture.take(row.row);
    if (taken) sources.set(row.row, taken);
  }
  return { sources, header: capture.headerChange() };
}

describe('the rows a row takes product fields from (kept for report --failed-only)', () => {
  it('a Shopify variant: its handle’s title row and the rows that add an image to its gallery', async () => {
    const file = await mapRealFile('shopify-template/product_template.csv');
    const parents = parentRows(file.sources);
    // "example-shirt": rows 1 to 12, Title on row 1, Image Src on rows 1 to 6.
    expect(parents[5]).toEqual([1, 2, 3, 4, 6]);
    expect(parents[8]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(parents[1]).toEqual([2, 3, 4, 5, 6]);
    // "example-hat" is one row: nothing.
    expect(parents[17]).toBeUndefined();
    expectParentsAsTaken(file.sources);
  });

  it('a WooCommerce variation and an Amazon child: their parent row', async () => {
    const woo = await mapRealFile('woocommerce/sample_products.csv');
    // Rows 15 to 17 are variations of row 1 (id:44, V-Neck T-Shirt); a simple product takes nothing.
    expect(parentRows(woo.sources)).toMatchObject({ 15: [1], 16: [1], 17: [1], 18: [2] });
    expect(parentRows(woo.sources)[3]).toBeUndefined();
    expectParentsAsTaken(woo.sources);

    const amazon = await mapRealFile('amazon-flat-file-synthetic/sample-variation-flat-file.tsv');
    expect(parentRows(amazon.sources)).toMatchObject({ 2: [1], 3: [1], 10: [9] });
    expectParentsAsTaken(amazon.sources);
  });

  it('an Amazon template file: the parent as the file wrote it, under its own columns, the header unchanged', async () => {
    const columns = ['TemplateType=fptcustom', 'Version=2021.1', 'TemplateSignature=X', 'c4'];
    const rows = [
      ['SKU', 'Product Name', 'Parentage', 'Parent SKU'],
      ['item_sku', 'item_name', 'parent_child', 'parent_sku'],
      ['P', 'Tee', 'parent', ''],
      ['C1', '', 'child', 'P'],
      ['C2', '', 'child', 'P'],
    ];
    const { sources, header } = await captured(columns, rows);
    expect(header).toEqual(columns);
    expect(parentRows(sources)).toEqual({ 4: [3], 5: [3] });
    expect(sources.get(5)).toEqual({
      values: ['C2', '', 'child', 'P'],
      parents: [{ row: 3, values: ['P', 'Tee', 'parent'] }],
    });
  });

  it('a parent given out before a child names it: a WooCommerce parent after its first variation, a Magento configurable merged into a visible child', async () => {
    const woo = await capturedRows(
      ['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Parent'],
      [
        ['45', 'variation', 'tee-red', '', '20', 'id:44'],
        ['44', 'variable', 'tee', 'Tee', '', ''],
        ['46', 'variation', 'tee-blue', '', '21', 'id:44'],
      ],
    );
    // Row 1 came before its parent: it takes nothing from it; row 3 does.
    expect(parentRows(woo)).toEqual({ 3: [2] });
    expectParentsAsTaken(woo);

    const magento = await capturedRows(MAGENTO_COLUMNS, [
      MAGENTO_HOODIE,
      ['H-S', '', 'simple', 'Hoodie S', '50', '1', 'Catalog, Search', '', ''],
      ['H-M', '', 'simple', 'Hoodie M', '50', '1', 'Not Visible Individually', '', ''],
    ]);
    expect(parentRows(magento)).toEqual({ 3: [1] });
    expectParentsAsTaken(magento);
  });

  it('a Magento variation written before its configurable, a Shopware variant, a BigCommerce variant', async () => {
    const magento = await capturedRows(MAGENTO_COLUMNS, [
      ['H-S', '', 'simple', 'Hoodie S', '50', '1', 'Not Visible Individually', '', ''],
      ['H', '', 'configurable', 'Hoodie', '', '1', 'Catalog, Search', 'Warm', 'sku=H-S,size=S'],
    ]);
    expect(parentRows(magento)).toEqual({ 1: [2] });

    const shopware = await capturedRows(
      ['id', 'parent_id', 'product_number', 'active', 'name', 'price_net', 'price_gross', 'tax_rate'],
      [
        ['p1', '', 'TEE', '1', 'Tee', '16.81', '20', '19'],
        ['v1', 'p1', 'TEE-S', '', '', '', '', ''],
      ],
    );
    expect(parentRows(shopware)).toEqual({ 2: [1] });

    const bigcommerce = await capturedRows(
      ['Item', 'ID', 'Name', 'SKU', 'Options', 'Price', 'Image URL'],
      [
        ['Product', '77', 'Mug', 'MUG', '', '12', ''],
        ['Variant', '901', '', 'MUG-R', 'Type=Swatch|Name=Color|Value=Red', '', ''],
        ['Image', '', '', '', '', '', 'https://cdn.example/mug.jpg'],
      ],
    );
    expect(parentRows(bigcommerce)).toEqual({ 2: [1, 3] });
  });

  it('a chunk job carries each parent’s values once, and gives every row its own back', async () => {
    const parent = { row: 1, values: ['TEE', 'Tee', 'A long description'] };
    const sources: (RowSource | null)[] = [
      ['PLAIN', 'Plain'],
      { values: ['TEE-S'], parents: [parent] },
      null,
      { values: ['TEE-M'], parents: [parent] },
    ];
    const packed = packSources(sources);
    expect(packed.parentSources).toEqual({ 1: parent.values });
    expect(JSON.stringify(packed).split('A long description')).toHaveLength(2);

    const rows = [10, 11, 12, 13].map((row) => ({
      kind: 'upsert' as const,
      row,
      line: row + 1,
      key: `K${row}`,
      fields: {},
    }));
    const data: ChunkJobData = JSON.parse(JSON.stringify({ runId: 'r', chunk: 0, rows, ...packed }));
    const back = sourcesByRow(data);
    expect([...back.keys()]).toEqual([10, 11, 13]);
    expect(back.get(11)).toEqual({ values: ['TEE-S'], parents: [parent] });
    expect(back.get(10)).toEqual(['PLAIN', 'Plain']);
    expect(packSources([null, null])).toEqual({});
  });
});
