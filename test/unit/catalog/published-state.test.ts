import { describe, expect, it } from 'vitest';
import { MAGENTO_COLUMNS, MAGENTO_HOODIE, mapRows } from './map-rows.js';

const WOO = ['ID', 'Type', 'SKU', 'Name', 'Published', 'Visibility in catalog', 'Regular price', 'Parent'];

describe('woocommerce published state', () => {
  it('sends a published product as active, a private one as private and a draft as draft, undoing the exporter’s escape', async () => {
    const rows = await mapRows(WOO, [
      ['1', 'simple', 'P', 'Public', '1', 'visible', '5', ''],
      ['2', 'simple', 'Q', 'Private', '0', 'visible', '5', ''],
      ['3', 'simple', 'D', 'Draft', "'-1", 'visible', '5', ''],
      ['4', 'simple', 'H', 'Hidden', '1', 'hidden', '5', ''],
    ]);
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields.status : row.kind))).toEqual([
      'active',
      'private',
      'draft',
      'hidden',
    ]);
    expect(rows[0]).not.toHaveProperty('notes');
    expect(rows[2]).toMatchObject({ notes: ['sent with status draft: WooCommerce Published -1 (draft)'] });
    expect(rows[3]).toMatchObject({
      notes: ['sent with status hidden: WooCommerce Visibility in catalog hidden'],
    });
  });

  it('undoes the escape on any cell, as WooCommerce’s importer does', async () => {
    const [row] = await mapRows(WOO, [['1', 'simple', "'-SKU-1", "'=Sum", '1', 'visible', '5', '']]);
    expect(row).toMatchObject({ key: '-SKU-1', fields: { sku: '-SKU-1', name: '=Sum' } });
  });

  it('reads a variation’s own state, and a variation of a parent that is not published is not sold', async () => {
    const rows = await mapRows(WOO, [
      ['10', 'variable', 'TEE', 'Tee', '1', 'visible', '', ''],
      ['11', 'variation', 'TEE-S', 'Tee S', '1', 'visible', '5', 'id:10'],
      ['12', 'variation', 'TEE-M', 'Tee M', '0', 'visible', '5', 'id:10'],
      ['20', 'variable', 'CAP', 'Cap', '0', 'visible', '', ''],
      ['21', 'variation', 'CAP-S', 'Cap S', '1', 'visible', '5', 'id:20'],
    ]);
    const upserts = rows.flatMap((row) => (row.kind === 'upsert' ? [row] : []));
    expect(upserts.map((row) => [row.key, row.fields.status])).toEqual([
      ['TEE-S', 'active'],
      ['TEE-M', 'private'],
      ['CAP-S', 'private'],
    ]);
    expect(upserts[1]?.notes).toEqual(['sent with status private: WooCommerce Published 0 (disabled)']);
    expect(upserts[2]?.notes).toEqual([
      'sent with status private: its parent "id:20": WooCommerce Published 0 (private)',
    ]);
  });

  it('a variation of an unpublished parent takes the parent’s state, whatever its own (docs/sources.md)', async () => {
    const rows = await mapRows(WOO, [
      ['30', 'variable', 'MUG', 'Mug', "'-1", 'visible', '', ''],
      ['31', 'variation', 'MUG-S', 'Mug S', '0', 'visible', '5', 'id:30'],
    ]);
    const upserts = rows.flatMap((row) => (row.kind === 'upsert' ? [row] : []));
    expect(upserts.map((row) => [row.key, row.fields.status])).toEqual([['MUG-S', 'draft']]);
    expect(upserts[0]?.notes).toEqual([
      'sent with status draft: its parent "id:30": WooCommerce Published -1 (draft)',
    ]);
  });

  it('with --only-published leaves out what is not sold, reported skipped with the reason', async () => {
    const rows = await mapRows(
      WOO,
      [
        ['1', 'simple', 'P', 'Public', '1', 'visible', '5', ''],
        ['2', 'simple', 'Q', 'Private', '0', 'visible', '5', ''],
      ],
      { onlyPublished: true },
    );
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { status: 'active' } });
    expect(rows[1]).toEqual({
      kind: 'skipped',
      row: 2,
      line: 3,
      key: 'Q',
      reason: 'not sold in the source (WooCommerce Published 0 (private)): left out (--only-published)',
    });
  });

  it('sends what is not sold without status when status is not among the fields sent, marked so the diff creates none of it', async () => {
    const rows = await mapRows(
      WOO,
      [
        ['1', 'simple', 'P', 'Public', '1', 'visible', '5', ''],
        ['2', 'simple', 'D', 'Draft', "'-1", 'visible', '5', ''],
      ],
      { fields: ['sku', 'name', 'price'] },
    );
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { sku: 'P', name: 'Public', price: 5 } });
    expect(rows[0]).not.toHaveProperty('fields.status');
    expect(rows[1]).toEqual({
      kind: 'upsert',
      row: 2,
      line: 3,
      key: 'D',
      fields: { sku: 'D', name: 'Draft', price: 5 },
      formerKey: 'woocommerce:id:2',
      notSold: 'WooCommerce Published -1 (draft)',
    });
  });

  it('does not count a skipped draft’s key: a later row with that key is not a duplicate', async () => {
    const rows = await mapRows(
      WOO,
      [
        ['1', 'simple', 'P', 'Old', '-1', 'visible', '5', ''],
        ['2', 'simple', 'P', 'New', '1', 'visible', '6', ''],
      ],
      { onlyPublished: true },
    );
    expect(rows.map((row) => row.kind)).toEqual(['skipped', 'upsert']);
  });
});

describe('magento published state and containers', () => {
  const MAGENTO = MAGENTO_COLUMNS;

  it('sends a disabled product as draft', async () => {
    const [row] = await mapRows(MAGENTO, [
      ['S', '', 'simple', 'Strap', '14', '2', 'Catalog, Search', '', ''],
    ]);
    expect(row).toMatchObject({
      kind: 'upsert',
      fields: { status: 'draft' },
      notes: ['sent with status draft: Magento product_online 2 (disabled)'],
    });
  });

  it('makes the not-visible variations written before their configurable products of their own, and merges the configurable into the first', async () => {
    const rows = await mapRows(MAGENTO, [
      ['H-S', '', 'simple', 'Hoodie S', '50', '1', 'Not Visible Individually', '', ''],
      ['H-M', '', 'simple', 'Hoodie M', '50', '1', 'Not Visible Individually', '', ''],
      MAGENTO_HOODIE,
    ]);
    expect(rows.map((row) => [row.row, row.kind])).toEqual([
      [1, 'upsert'],
      [2, 'upsert'],
      [3, 'merged'],
    ]);
    expect(rows[0]).toMatchObject({
      key: 'H-S',
      fields: { status: 'active', description: 'Warm' },
      notes: ['sold through configurable product "H" (row 3)'],
    });
    expect(rows[2]).toMatchObject({ key: 'H', intoRow: 1 });
  });

  it('holds a configurable written first until its first variation, which is then sold', async () => {
    const rows = await mapRows(MAGENTO, [
      ['H', '', 'configurable', 'Hoodie', '', '1', 'Catalog, Search', '', 'sku=H-S,size=S'],
      ['H-S', '', 'simple', 'Hoodie S', '50', '1', 'Not Visible Individually', '', ''],
    ]);
    expect(rows).toMatchObject([
      { kind: 'merged', row: 1, intoRow: 2 },
      { kind: 'upsert', row: 2, fields: { status: 'active' } },
    ]);
  });

  it('hides a not-visible simple that no configurable or grouped product in the file lists', async () => {
    const rows = await mapRows(MAGENTO, [
      ['PART', '', 'simple', 'Part', '3', '1', 'Not Visible Individually', '', ''],
      ['X', '', 'simple', 'Thing', '9', '1', 'Catalog, Search', '', ''],
    ]);
    expect(rows.map((row) => row.row)).toEqual([2, 1]);
    expect(rows[1]).toMatchObject({
      kind: 'upsert',
      key: 'PART',
      fields: { status: 'hidden' },
      notes: [expect.stringContaining('Not Visible Individually, and no configurable or grouped product')],
    });
  });

  it('skips a configurable none of whose variations is in the file', async () => {
    const rows = await mapRows(MAGENTO, [
      ['H', '', 'configurable', 'Hoodie', '', '1', 'Catalog, Search', '', 'sku=H-S,size=S'],
    ]);
    expect(rows).toMatchObject([
      { kind: 'skipped', key: 'H', reason: expect.stringContaining('none of its variations') },
    ]);
  });
});

describe('shopify and google merchant published state', () => {
  const SHOPIFY = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Status', 'Published'];

  it('shopify: Status is the state of every variant; an export without Status says it with Published', async () => {
    const rows = await mapRows(SHOPIFY, [
      ['cap', 'Cap', 'C-1', '5', 'draft', 'FALSE'],
      ['cap', '', 'C-2', '5', '', ''],
      ['mug', 'Mug', 'M-1', '9', 'archived', 'FALSE'],
      ['pin', 'Pin', 'P-1', '2', '', 'FALSE'],
    ]);
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields.status : row.kind))).toEqual([
      'draft',
      'draft',
      'archived',
      'hidden',
    ]);
  });

  it('google merchant: an item out of stock (not accepting orders) or paused is hidden', async () => {
    const rows = await mapRows(
      ['id', 'title', 'price', 'availability', 'pause'],
      [
        ['A', 'In', '5 EUR', 'in stock', ''],
        ['B', 'Out', '5 EUR', 'out_of_stock', ''],
        ['C', 'Paused', '5 EUR', 'in_stock', 'ads'],
      ],
    );
    expect(rows.map((row) => (row.kind === 'upsert' ? row.fields.status : row.kind))).toEqual([
      'active',
      'hidden',
      'hidden',
    ]);
  });
});
