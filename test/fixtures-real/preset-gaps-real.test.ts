import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InvalidRow } from '../../src/interfaces.js';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';
import { mapRealFile } from './map-real-file.js';

/** What the presets made of the real exports where a tester found them wrong (blank headers, price 0 …). */
const PRESTASHOP_16 = 'prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'preset-gaps-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A copy of a real export with its text edited, in the test's folder. */
async function editedCopy(file: string, name: string, edit: (text: string) => string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, edit(await readFile(join(REAL_FIXTURES_DIR, file), 'utf8')));
  return path;
}

describe('prestashop 1.6 sample: the columns its header leaves blank', () => {
  it('the blank-headed Visibility column is read by its place: iPod touch (none) is hidden, as in the 1.7 file', async () => {
    const file = await mapRealFile(PRESTASHOP_16);
    expect(file.byKey('RP-demo_5').fields.status).toBe('hidden');
    expect(file.byKey('RP-demo_5').notes).toEqual(['sent with status hidden: PrestaShop Visibility none']);
    // both, catalog, search: shown in the shop, sold.
    for (const key of ['RP-demo_1', 'RP-demo_2', 'RP-demo_3', 'RP-demo_4'])
      expect(file.byKey(key).fields.status).toBe('active');
    expect(file.detections).toContain(
      'columns with a blank header, named by their place: 20 Width, 21 Height, 22 Depth, 25 Minimal quantity, 26 Visibility, 27 Additional shipping cost, 28 Unit for the unit price, 29 Unit price',
    );
    expect(file.detections.join('\n')).toMatch(
      /preset prestashop \(detected from columns .*: blank header cells named by their place in PrestaShop’s field list\)/,
    );
  });

  it('read by a mapping file that does not name them, the blank columns holding data are listed, not dropped without a word', async () => {
    const file = await mapRealFile(PRESTASHOP_16, { mappingFile: 'prestashop.yml' });
    expect(file.detections).toContain(
      'columns with a blank header, not read: 20 (e.g. "0.6"), 21 (e.g. "0.2"), 22 (e.g. "0.4"), 25 (e.g. "1"), 26 (e.g. "both"), 27 (e.g. "20")',
    );
  });

  it('a blank column whose place is not certain stays unnamed, and is listed as not read', async () => {
    // Only the Visibility column left between Quantity and Short description, where the list has five.
    const path = await editedCopy(PRESTASHOP_16, 'one-blank.csv', (text) =>
      text
        .split('\r\n')
        .map((line) => {
          const cells = line.split(';');
          cells.splice(26, 3);
          cells.splice(24, 1);
          return cells.join(';');
        })
        .join('\r\n'),
    );
    const file = await mapRealFile(path);
    expect(file.byKey('RP-demo_5').fields.status).toBe('active');
    expect(file.detections).toContain(
      'columns with a blank header, named by their place: 20 Width, 21 Height, 22 Depth',
    );
    expect(file.detections).toContain('columns with a blank header, not read: 25 (e.g. "both")');
  });
});

describe('google merchant: a price of 0', () => {
  it('the poetry feed: the six items priced 0 are invalid, each with one line; none is sent at 0', async () => {
    const file = await mapRealFile('google-merchant/google-merchant-feed.xml');
    expect(file.counts).toEqual({ upsert: 1, invalid: 6, merged: 0, skipped: 0 });
    const invalid = file.rows.filter((row): row is InvalidRow => row.kind === 'invalid');
    expect(invalid.map((row) => row.row)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(invalid[0]).toMatchObject({
      key: '179566f2ff9c9d1d5ef874b1b9595d4d',
      reason:
        'price "0" is no price in a Merchant Center feed (Google disapproves an item priced 0): give the item its price',
    });
    // The empty <g:price/> sends no price (a new product is then refused for it, an update keeps its own).
    expect(file.byKey('fb678cd296d616b7155f6c3fce811f02').fields.price).toBeUndefined();
  });

  it('0.00 with a currency is no price either; 0.01 is one', async () => {
    const path = await editedCopy('google-merchant/google-merchant-feed.tsv', 'zero.tsv', (text) =>
      text.replace('\t4.50 USD\t', '\t0.00 USD\t').replace('\t4.00 USD\t', '\t0.01 USD\t'),
    );
    const file = await mapRealFile(path);
    expect(file.rows[0]).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/^price "0.00 USD" is no price/),
    });
    expect(file.byKey('TG-PLATE-200').fields).toMatchObject({ price: 0.01, currency: 'USD' });
  });
});

describe('woocommerce sample: a variation without a weight', () => {
  it("takes its parent's, as WooCommerce does (V-neck .5, hoodie 1.5)", async () => {
    const file = await mapRealFile('woocommerce/sample_products.csv');
    for (const key of ['woo-vneck-tee-red', 'woo-vneck-tee-green', 'woo-vneck-tee-blue'])
      expect(file.byKey(key).fields.weight).toBe(0.5);
    for (const key of ['woo-hoodie-red', 'woo-hoodie-green', 'woo-hoodie-blue', 'woo-hoodie-blue-logo'])
      expect(file.byKey(key).fields.weight).toBe(1.5);
  });

  it('a variation weight of 0 is empty() in WooCommerce: the parent’s too; its own weight stays its own', async () => {
    const path = await editedCopy('woocommerce/sample_products.csv', 'weights.csv', (text) =>
      text
        // The cell after Sold individually? is Weight (lbs), blank in both rows.
        .replace(/^(76,variation,woo-vneck-tee-red,.*",,,taxable,,1,,0,0,)/m, '$10')
        .replace(/^(77,variation,woo-vneck-tee-green,.*",,,taxable,,1,,0,0,)/m, '$1.7'),
    );
    const file = await mapRealFile(path);
    expect(file.byKey('woo-vneck-tee-red').fields.weight).toBe(0.5);
    expect(file.byKey('woo-vneck-tee-green').fields.weight).toBe(0.7);
  });
});

describe('ebay: the currency of a price', () => {
  it('the Seller Hub sheet names none: no currency is sent, and each "$" price says so', async () => {
    const file = await mapRealFile('ebay-seller-hub-upload/ebay_upload.csv');
    const row = file.byKey('MUN-GARNACHO-199-PSA10');
    expect(row.fields).toMatchObject({ price: 479.99 });
    expect(row.fields.currency).toBeUndefined();
    expect(row.notes).toEqual([
      'price "$479.99": no currency sent: the sheet does not name its eBay site\'s currency (eBay\'s template does, in its Action header: Currency=USD)',
    ]);
  });

  it("eBay's template header names it (Action(…|Currency=USD|…)): sent as currency, no note", async () => {
    const file = await mapRealFile('ebay-seller-hub-upload/ebay_upload.csv', {
      header: (columns) =>
        columns.map((column) =>
          column === 'Action' ? 'Action(SiteID=US|Country=US|Currency=USD|Version=1193)' : column,
        ),
    });
    const row = file.byKey('MUN-GARNACHO-199-PSA10');
    expect(row.fields).toMatchObject({ price: 479.99, currency: 'USD' });
    expect(row.notes).toBeUndefined();
  });
});

describe('amazon: a file without a name column', () => {
  it('each row without a name says which column would hold it; with item_name, nothing to say', async () => {
    const file = await mapRealFile('amazon-flat-file-synthetic/sample-variation-flat-file.tsv');
    expect(file.byKey('SKU-RED-001').unnamed).toBe('the file has no item_name column');

    const named = await mapRealFile('amazon-flat-file-synthetic/sample-variation-flat-file.tsv', {
      header: (columns) => columns.map((column) => (column === 'style_name' ? 'item_name' : column)),
    });
    expect(named.byKey('SKU-RED-001').fields.name).toBe('Classic');
    expect(named.byKey('SKU-RED-001')).not.toHaveProperty('unnamed');
  });
});
