import { describe, expect, it } from 'vitest';
import { leftOutUnsold, notSoldWithoutStatus } from '../../../src/catalog/unsold.js';
import { mapRows } from './map-rows.js';

const ARCHIVED = { status: 'archived', says: 'Shopify Status archived' } as const;
const WITHOUT_STATUS = new Set(['sku', 'price', 'quantity']);

describe('leftOutUnsold: a row the source does not sell, and --missing', () => {
  it('sends what is sold, and what is not sold with its status when nothing leaves it out', () => {
    expect(leftOutUnsold({ status: 'active', says: 'Shopify Status active' }, { onlyPublished: true })).toBe(
      undefined,
    );
    expect(leftOutUnsold(ARCHIVED, { missing: true })).toBe(undefined);
    expect(leftOutUnsold(ARCHIVED, { send: new Set(['sku', 'status']), missing: true })).toBe(undefined);
  });

  it('does not leave out a row --fields sends without status: its product, if it exists, is updated', () => {
    expect(leftOutUnsold(ARCHIVED, { send: WITHOUT_STATUS })).toBe(undefined);
    expect(leftOutUnsold(ARCHIVED, { send: WITHOUT_STATUS, missing: true })).toBe(undefined);
    expect(notSoldWithoutStatus(ARCHIVED, { send: WITHOUT_STATUS, missing: true })).toBe(
      'Shopify Status archived',
    );
    expect(notSoldWithoutStatus(ARCHIVED, { send: new Set(['sku', 'status']) })).toBe(undefined);
    expect(notSoldWithoutStatus(ARCHIVED, {})).toBe(undefined);
    expect(
      notSoldWithoutStatus({ status: 'active', says: 'Shopify Status active' }, { send: WITHOUT_STATUS }),
    ).toBe(undefined);
  });

  it('without --missing: left out by --only-published, its key held as before', () => {
    const reason = 'not sold in the source (Shopify Status archived): left out (--only-published)';
    expect(leftOutUnsold(ARCHIVED, { onlyPublished: true })).toEqual({ reason, unsold: false });
    // --only-published wins over --fields: such rows are left out entirely, as it says.
    expect(leftOutUnsold(ARCHIVED, { onlyPublished: true, send: WITHOUT_STATUS })).toEqual({
      reason,
      unsold: false,
    });
  });

  it('with --missing: left out by --only-published, and gone from the source', () => {
    expect(leftOutUnsold(ARCHIVED, { onlyPublished: true, missing: true })).toEqual({
      reason:
        'not sold in the source (Shopify Status archived): left out (--only-published); counted as gone from the source (--missing)',
      unsold: true,
    });
  });
});

describe('the mapped rows of a run with --missing', () => {
  const SHOPIFY = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Status'];

  it('marks a Shopify row left out as not sold, and only that one', async () => {
    const rows = await mapRows(
      SHOPIFY,
      [
        ['mug', 'Mug', 'MUG-1', '12.50', 'active'],
        ['lamp', 'Lamp', 'LAMP-1', '30.00', 'archived'],
        ['desk', 'Desk', 'DESK-1', '80.00', 'draft'],
      ],
      { preset: 'shopify', onlyPublished: true, missing: true },
    );
    expect(rows.map((row) => [row.kind, row.key, row.kind === 'skipped' ? row.unsold : undefined])).toEqual([
      ['upsert', 'MUG-1', undefined],
      ['skipped', 'LAMP-1', true],
      ['skipped', 'DESK-1', true],
    ]);
  });

  it('sends a row --fields sends without status, marked not sold, and never as gone from the source', async () => {
    const rows = await mapRows(
      SHOPIFY,
      [
        ['mug', 'Mug', 'MUG-1', '12.50', 'active'],
        ['lamp', 'Lamp', 'LAMP-1', '30.00', 'archived'],
      ],
      { preset: 'shopify', fields: ['sku', 'price'], missing: true },
    );
    expect(rows).toEqual([
      {
        kind: 'upsert',
        row: 1,
        line: 2,
        key: 'MUG-1',
        fields: { sku: 'MUG-1', price: 12.5 },
        formerKey: 'shopify:mug',
      },
      {
        kind: 'upsert',
        row: 2,
        line: 3,
        key: 'LAMP-1',
        fields: { sku: 'LAMP-1', price: 30 },
        formerKey: 'shopify:lamp',
        notSold: 'Shopify Status archived',
      },
    ]);
  });

  it('does not mark it without --missing', async () => {
    const [row] = await mapRows(SHOPIFY, [['lamp', 'Lamp', 'LAMP-1', '30.00', 'archived']], {
      preset: 'shopify',
      onlyPublished: true,
    });
    expect(row).toEqual({
      kind: 'skipped',
      row: 1,
      line: 2,
      key: 'LAMP-1',
      reason: 'not sold in the source (Shopify Status archived): left out (--only-published)',
    });
  });

  it('reads a generic file’s own status column as its rows’ published state: only active is sold', async () => {
    const rows = await mapRows(
      ['sku', 'name', 'price', 'status'],
      [
        ['LAMP-1', 'Lamp', '30', 'archived'],
        ['MUG-1', 'Mug', '12', ' Active '],
        ['DESK-1', 'Desk', '80', ''],
        ['VASE-1', 'Vase', '20', 'inactive'],
      ],
      { onlyPublished: true, missing: true },
    );
    expect(
      rows.map((row) => [
        row.kind,
        row.key,
        row.kind === 'skipped' ? row.reason : row.kind === 'upsert' ? row.fields.status : undefined,
      ]),
    ).toEqual([
      [
        'skipped',
        'LAMP-1',
        'not sold in the source (status archived): left out (--only-published); counted as gone from the source (--missing)',
      ],
      // Sent as the row has it: the API reads it.
      ['upsert', 'MUG-1', 'Active'],
      // A blank status says nothing: sent as any other row.
      ['upsert', 'DESK-1', undefined],
      [
        'skipped',
        'VASE-1',
        'not sold in the source (status inactive): left out (--only-published); counted as gone from the source (--missing)',
      ],
    ]);
  });

  it('a generic row not sold, --fields without status: marked so that it is never created live', async () => {
    const [row] = await mapRows(['sku', 'name', 'price', 'status'], [['LAMP-1', 'Lamp', '30', 'draft']], {
      fields: ['sku', 'price'],
    });
    expect(row).toMatchObject({
      kind: 'upsert',
      fields: { sku: 'LAMP-1', price: 30 },
      notSold: 'status draft',
    });
  });

  it('without --only-published or --fields, a generic row goes with its own status, as it always did', async () => {
    const [row] = await mapRows(['sku', 'name', 'price', 'status'], [['LAMP-1', 'Lamp', '30', 'archived']], {
      missing: true,
    });
    expect(row).toEqual({
      kind: 'upsert',
      row: 1,
      line: 2,
      key: 'LAMP-1',
      fields: { sku: 'LAMP-1', name: 'Lamp', price: 30, status: 'archived' },
    });
  });
});

describe('rows under another row’s key, under --missing: that row alone says whether the key is held', () => {
  const only = { onlyPublished: true, missing: true } as const;
  type Rows = Awaited<ReturnType<typeof mapRows>>;
  const flags = (rows: Rows) =>
    rows.map((row) => [
      row.row,
      row.kind,
      row.key,
      row.kind === 'skipped' && row.unsold ? 'unsold' : 'sharesKey' in row && row.sharesKey ? 'shares' : '',
    ]);

  it('a Shopify image row, of an archived product or a sold one', async () => {
    const rows = await mapRows(
      ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Status', 'Image Src'],
      [
        ['lamp', 'Lamp', 'LAMP-1', '30', 'archived', 'https://cdn.example/1.jpg'],
        ['lamp', '', '', '', '', 'https://cdn.example/2.jpg'],
        ['mug', 'Mug', 'MUG-1', '12', 'active', 'https://cdn.example/3.jpg'],
        ['mug', '', '', '', '', 'https://cdn.example/4.jpg'],
      ],
      { preset: 'shopify', ...only },
    );
    expect(flags(rows)).toEqual([
      [1, 'skipped', 'LAMP-1', 'unsold'],
      [2, 'merged', 'LAMP-1', 'shares'],
      [3, 'upsert', 'MUG-1', ''],
      [4, 'merged', 'MUG-1', 'shares'],
    ]);
  });

  it('a BigCommerce product row written before its variants, and its rule row', async () => {
    const rows = await mapRows(
      ['Item Type', 'Product ID', 'Product Name', 'Product Code/SKU', 'Price', 'Product Visible?'],
      [
        ['Product', '31', 'Hoodie', 'HOOD', '40', 'N'],
        ['  SKU', '', '[S]Size=Small', 'HOOD-S', '', ''],
        ['  Rule', '', '', '', '', ''],
      ],
      only,
    );
    expect(flags(rows)).toEqual([
      [1, 'merged', 'HOOD-S', 'shares'],
      [2, 'skipped', 'HOOD-S', 'unsold'],
      [3, 'skipped', 'HOOD-S', 'shares'],
    ]);
  });

  it('a Magento store-view row, also one that comes out before its held default row', async () => {
    const rows = await mapRows(
      ['sku', 'store_view_code', 'product_type', 'name', 'price', 'product_online', 'visibility'],
      [
        ['S1', '', 'simple', 'Strap', '14', '2', 'Catalog, Search'],
        ['S1', 'de', 'simple', 'Gurt', '', '', ''],
        ['S2', '', 'simple', 'Belt', '20', '1', 'Not Visible Individually'],
        ['S2', 'de', 'simple', 'Gürtel', '', '', ''],
      ],
      only,
    );
    expect(flags(rows)).toEqual([
      [1, 'skipped', 'S1', 'unsold'],
      [2, 'merged', 'S1', 'shares'],
      [4, 'merged', 'S2', 'shares'],
      [3, 'skipped', 'S2', 'unsold'],
    ]);
  });

  it('a WooCommerce variable product merged into its variation keeps its own key', async () => {
    const rows = await mapRows(
      ['ID', 'Type', 'SKU', 'Name', 'Published', 'Regular price', 'Parent'],
      [
        ['10', 'variable', 'TEE', 'Tee', '-1', '', ''],
        ['11', 'variation', 'TEE-S', 'Tee S', '1', '5', 'id:10'],
      ],
      only,
    );
    expect(flags(rows)).toEqual([
      [1, 'merged', 'TEE', ''],
      [2, 'skipped', 'TEE-S', 'unsold'],
    ]);
  });

  it('flags nothing without --missing', async () => {
    const rows = await mapRows(
      ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Status', 'Image Src'],
      [
        ['lamp', 'Lamp', 'LAMP-1', '30', 'archived', 'https://cdn.example/1.jpg'],
        ['lamp', '', '', '', '', 'https://cdn.example/2.jpg'],
      ],
      { preset: 'shopify', onlyPublished: true },
    );
    expect(flags(rows)).toEqual([
      [1, 'skipped', 'LAMP-1', ''],
      [2, 'merged', 'LAMP-1', ''],
    ]);
  });
});
