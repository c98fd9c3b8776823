import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogConfigError, createMapper, peekRecords } from '../../src/catalog/index.js';
import type { MappedRow, ProductUpsert } from '../../src/interfaces.js';
import { openSource } from '../../src/sources/index.js';
import { editedSample } from './edited-sample.js';
import { mapRealFile } from './map-real-file.js';

/** Issue 17: PrestaShop, Shopware 6 and BigCommerce as presets, on their real files. */
describe('prestashop', () => {
  it.each(['prestashop/products_import.csv', 'prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv'])(
    '%s: detected, keyed by Reference #, the price net of tax and said so',
    async (name) => {
      const file = await mapRealFile(name);
      expect(file.detections).toContain("delimiter ';' (detected)");
      expect(file.detections.join('\n')).toMatch(
        /preset prestashop \(detected from columns Name \*, Price tax excluded/,
      );
      expect(file.detections.join('\n')).toContain(
        'prices: net of tax, sent as the file has them (Price tax excluded',
      );
      expect(file.byKey('RP-demo_3').fields).toMatchObject({
        sku: 'RP-demo_3',
        name: 'MacBook Air',
        price: 1500,
        quantity: 400,
        brand: 'Apple',
        status: 'active',
      });
    },
  );

  it('reads Visibility none as hidden', async () => {
    const file = await mapRealFile('prestashop/products_import.csv');
    expect(file.byKey('RP-demo_5').fields.status).toBe('hidden');
    expect(file.byKey('RP-demo_5').notes).toEqual(['sent with status hidden: PrestaShop Visibility none']);
  });

  it('--tax-rate 20%: sends gross prices and says which', async () => {
    const file = await mapRealFile('prestashop/products_import.csv', { taxRate: '20' });
    expect(file.byKey('RP-demo_1').fields.price).toBe(120);
    expect(file.byKey('RP-demo_7').fields.price).toBe(150);
    expect(file.detections).toContain(
      'prices: sent gross: Price tax excluded, with 20% tax (--tax-rate) added, rounded to cents',
    );
  });

  it('--price-includes-tax without a rate is refused in one line: a tax rule id is not a rate', async () => {
    await expect(mapRealFile('prestashop/products_import.csv', { priceIncludesTax: true })).rejects.toThrow(
      new CatalogConfigError(
        "--price-includes-tax: this file's prices are net of tax (Price tax excluded; Tax rules ID names a tax rule, not a rate) and it gives no tax rate: add --tax-rate P%",
      ),
    );
  });

  describe('a shop that never filled Reference #, its file in ISO-8859-1 as PrestaShop writes it', () => {
    let dir = '';
    const rows: MappedRow[] = [];
    let detections: string[] = [];

    beforeAll(async () => {
      // The real sample, its Reference # cells emptied and French names put in, written in Latin-1.
      dir = await mkdtemp(join(tmpdir(), 'prestashop-latin1-'));
      const path = await editedSample(dir, 'latin1', (cell, i) => {
        cell('Reference #', '');
        if (i === 0) cell('Name *', 'Baladeur numérique à écran, façon « Nano »');
      });
      const source = await openSource(path);
      const peeked = await peekRecords(source.records);
      const mapper = createMapper({
        columns: source.columns,
        sample: peeked.sample,
        ...(source.delimiter ? { delimiter: source.delimiter } : {}),
      });
      detections = [...source.detections, ...mapper.detections];
      for await (const row of mapper.map(peeked.records)) rows.push(row);
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('is decoded, split on ; and detected', () => {
      expect(detections).toEqual(
        expect.arrayContaining([
          'encoding windows-1252 (detected: not valid UTF-8)',
          "delimiter ';' (detected)",
          expect.stringMatching(/^preset prestashop \(detected from columns/),
        ]),
      );
    });

    it('keys each product by PrestaShop’s own id, never sent as sku, and keeps the accents', () => {
      const upserts = rows.filter((row): row is ProductUpsert => row.kind === 'upsert');
      expect(upserts.map((row) => row.key)).toEqual([1, 2, 3, 4, 5, 6, 7].map((id) => `prestashop:id:${id}`));
      expect(upserts.every((row) => row.fields.sku === undefined)).toBe(true);
      expect(upserts[0]?.fields.name).toBe('Baladeur numérique à écran, façon « Nano »');
      expect(upserts[0]?.notes).toContain('key derived (no Reference #): prestashop:id:1, not sent as sku');
    });
  });
});

describe('prestashop: a shop in a comma locale', () => {
  let dir = '';
  const byKey = new Map<string, ProductUpsert>();
  let detections: string[] = [];
  let invalid: MappedRow[] = [];

  beforeAll(async () => {
    // The real sample with the decimals a French back office writes: PrestaShop's import reads a
    // comma as the decimal point, so 1,299 is one euro and 29.9 cents, and 1,250 kg is 1.25 kg.
    // Price, weight and quantity. A quantity of 1,000: PrestaShop reads 1, a person may mean 1000.
    const written: Record<number, [string, string, string]> = {
      0: ['1,299', '1,250', '160'],
      1: ['100,50', '0,5', '1,000'],
      2: ['12.50', '1.250', '7'],
    };
    dir = await mkdtemp(join(tmpdir(), 'prestashop-comma-'));
    const path = await editedSample(dir, 'utf8', (cell, i) => {
      const values = written[i];
      if (!values) return;
      cell('Price tax excluded', values[0]);
      cell('Weight', values[1]);
      cell('Quantity', values[2]);
    });
    const file = await mapRealFile(path);
    detections = file.detections;
    for (const row of file.upserts) byKey.set(row.key, row);
    invalid = file.rows.filter((row) => row.kind === 'invalid');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a lone comma or dot as the decimal point', () => {
    // 1.299 euros: read as the decimal point, then sent as money (cents), and the row says so.
    expect(byKey.get('RP-demo_1')?.fields).toMatchObject({ price: 1.3, weight: 1.25, quantity: 160 });
    // The note quotes the cell as the file writes it (comma and all).
    expect(byKey.get('RP-demo_1')?.notes).toContain('price 1,299 → 1.30 (rounded half up to 2 decimals)');
    expect(byKey.get('RP-demo_3')?.fields).toMatchObject({ price: 12.5, weight: 1.25, quantity: 7 });
    expect(detections).toContain('decimals with a dot or a comma, never a thousands separator');
  });

  it('refuses a whole number it cannot tell (1 or 1000?) rather than guess', () => {
    expect(byKey.has('RP-demo_2')).toBe(false);
    expect(invalid).toEqual([
      expect.objectContaining({
        row: 2,
        reason: expect.stringContaining(
          'ambiguous quantity "1,000" (a decimal point or a thousands separator?): write it without the separator',
        ),
      }),
    ]);
  });
});

describe('shopware 6', () => {
  it('single product: detected; the gross price sent as the file has it, and said so', async () => {
    const file = await mapRealFile('shopware/single-product.csv');
    expect(file.detections.join('\n')).toMatch(
      /preset shopware \(detected from columns product_number, price_net/,
    );
    expect(file.detections).toContain(
      'prices: price_gross (tax included), else price_net (net of tax), sent as the file has them (rounded half up where they have more than 2 decimals)',
    );
    expect(file.byKey('SW10000').fields).toMatchObject({
      sku: 'SW10000',
      name: 'Example product',
      price: 5,
      quantity: 2,
      brand: 'shopware AG',
      status: 'active',
    });
  });

  it('a product that configures variants the file does not hold is a container: skipped with the reason', async () => {
    const file = await mapRealFile('shopware/products_with_variants.csv');
    expect(file.rows.map((row) => row.kind)).toEqual(['skipped', 'skipped']);
    expect(file.rows[0]).toMatchObject({
      key: '50702c3eb3244b988b06c7a610b45f52',
      reason: expect.stringMatching(
        /^product with variants \(size: M, L, XL, XXL \| motive: .*the parent is not sold on its own$/,
      ),
    });
  });

  it('--price-includes-tax keeps the gross price', async () => {
    const file = await mapRealFile('shopware/single-product.csv', { priceIncludesTax: true });
    expect(file.byKey('SW10000').fields.price).toBe(5);
  });
});

describe('bigcommerce', () => {
  it('the API-style sheet: detected, every row a product, the bare inch mark kept', async () => {
    const file = await mapRealFile('bigcommerce-api-import-script/sample_products.csv');
    expect(file.detections.join('\n')).toMatch(
      /preset bigcommerce \(detected from columns Product Name, Price, Inventory Level/,
    );
    expect(file.byKey('RED-MAT-10').fields).toMatchObject({
      sku: 'RED-MAT-10',
      name: 'Redline 10" Premium Memory Foam Mattress',
      price: 595.95,
      quantity: 12,
      category: 'Interior Parts',
      weight: 28,
      status: 'active',
    });
  });
});
