import { afterEach, describe, expect, it } from 'vitest';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';
import { removePrefix } from '../support/redis-prefix.js';

const COLUMNS = ['Handle', 'Title', 'Variant SKU', 'Variant Price'];

/** One Shopify product of one variant; without a SKU its key is derived (`shopify:<handle>`). */
function variant(handle: string, title: string, sku: string, price: string): CatalogRow {
  return { Handle: handle, Title: title, 'Variant SKU': sku, 'Variant Price': price } as never;
}

/** Two products without a SKU (rows 1 and 2, keys derived) and one with (row 3). */
const EXPORT = [
  variant('cafe-creme', 'Café crème', '', '4.50'),
  variant('the-noir', 'Thé noir', '', '3.20'),
  variant('mug', 'Mug', 'MUG-1', '9.00'),
];

const ETSY_COLUMNS = ['TITLE', 'PRICE', 'CURRENCY_CODE', 'QUANTITY', 'SKU'];

/** One Etsy listing, its SKU empty and no listing id: its key is the title's slug (`etsy:clay-mug-blue`). */
function listing(title: string): CatalogRow {
  return { TITLE: title, PRICE: '24.00', CURRENCY_CODE: 'EUR', QUANTITY: '3', SKU: '' } as never;
}

/**
 * A row without a SKU is matched to the product made for it through the ids this tool records
 * (docs/sources.md): once that record is gone (a flushed Redis, an empty replica, another
 * CATALOG_SYNC_PREFIX), a re-run cannot tell the product is its own. Its create would make the
 * product a second time: the run is held (exit 5, nothing sent) until `approve`.
 */
describe('rows without a SKU once the id map is lost', () => {
  const pipeline = usePipeline();
  /** Another prefix: a Redis that lost the tool's record. Removed after each test. */
  const fresh = () => `${pipeline.prefix}-fresh`;
  afterEach(async () => {
    await removePrefix(fresh());
  });

  async function firstMigration(): Promise<Map<string, string>> {
    const first = await pipeline.cli(['run', await pipeline.csv('export.csv', EXPORT, COLUMNS)]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const ids = new Map(pipeline.products().map((p) => [String(p.name), String(p.id)]));
    expect(ids.size).toBe(3);
    return ids;
  }

  it('holds the re-run with a lost record (exit 5, no POST); approve creates them anyway', async () => {
    const ids = await firstMigration();
    pipeline.sandbox.resetStats();

    const held = await pipeline.cli(['run', await pipeline.csv('again.csv', EXPORT, COLUMNS)], {
      CATALOG_SYNC_PREFIX: fresh(),
    });

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toHaveLength(3);
    const reason =
      `rows 1 (shopify:cafe-creme, "Café crème") and 2 (shopify:the-noir, "Thé noir") look like ` +
      `products ${ids.get('Café crème')} and ${ids.get('Thé noir')}, which have no SKU and which this ` +
      'tool has no record of (made by hand or by another app, or by this tool before its Redis record was lost): ' +
      'creating them may duplicate them (approve creates them anyway and stops asking about those products, or ' +
      "give those products a SKU, and a row the same one if one is that row's own): nothing was sent";
    expect(held.stdout).toContain(`  held      ${reason}`);
    const runId = runIdOf(held.stdout);
    expect(held.stdout).toContain(`  approve   catalog-sync approve ${runId}`);
    const report = parseCsv((await pipeline.cli(['report', runId], { CATALOG_SYNC_PREFIX: fresh() })).stdout);
    expect(report.filter((line) => line.status === 'held').map((line) => line.key)).toEqual([
      'shopify:cafe-creme',
      'shopify:the-noir',
    ]);

    pipeline.sandbox.resetStats();
    const approved = await pipeline.cli(['approve', runId], { CATALOG_SYNC_PREFIX: fresh() });

    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 2 });
    expect(pipeline.products().map((p) => p.name)).toEqual([
      'Café crème',
      'Thé noir',
      'Mug',
      'Café crème',
      'Thé noir',
    ]);
  });

  it('a dry run with a lost record says the real run would be held', async () => {
    const ids = await firstMigration();

    const dry = await pipeline.cli(
      ['run', await pipeline.csv('again.csv', EXPORT.slice(0, 1), COLUMNS), '--dry-run'],
      { CATALOG_SYNC_PREFIX: fresh() },
    );

    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      `  guard     a run without --dry-run would be held (exit 5): row 1 (shopify:cafe-creme, "Café crème") ` +
        `looks like product ${ids.get('Café crème')}, which has no SKU and which this tool has no record ` +
        'of (made by hand or by another app, or by this tool before its Redis record was lost): creating it may ' +
        'duplicate it (approve creates it anyway and stops asking about that product, or give that product a SKU, ' +
        "and the row the same one if it is the row's own)",
    );
  });

  it('with the record intact the re-run is unchanged and not held', async () => {
    await firstMigration();
    pipeline.sandbox.resetStats();

    const again = await pipeline.cli(['run', await pipeline.csv('again.csv', EXPORT, COLUMNS)]);

    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(again.stdout).not.toContain('held');
  });

  it('a first migration is not held: an empty marketplace, or products without a SKU named otherwise', async () => {
    const empty = await pipeline.cli(['run', await pipeline.csv('export.csv', EXPORT, COLUMNS)], {
      CATALOG_SYNC_PREFIX: fresh(),
    });
    expect(empty.code, empty.stdout + empty.stderr).toBe(0);
    expect(pipeline.products()).toHaveLength(3);

    // Another seller's marketplace holds a product without a SKU made by hand, of another name.
    pipeline.sandbox.addKey('sk_other', 'seller-other');
    pipeline.sandbox.seedProducts('seller-other', [{ name: 'Café au lait', price: 4 }]);
    const other = await pipeline.cli(['run', await pipeline.csv('export.csv', EXPORT, COLUMNS)], {
      SELLER_API_KEY: 'sk_other',
    });

    expect(other.code, other.stdout + other.stderr).toBe(0);
    expect(pipeline.products('seller-other').map((p) => p.name)).toEqual([
      'Café au lait',
      'Café crème',
      'Thé noir',
      'Mug',
    ]);
  });
});

/**
 * Marketplaces keep their own form of a name (runs of spaces collapsed: the sandbox's --normalize):
 * the product made for `Clay  Mug   Blue` is listed as `Clay Mug Blue`, and still looks like it.
 */
describe('rows without a SKU once the id map is lost, against an API that keeps its own form of names', () => {
  const pipeline = usePipeline({ normalize: true });
  const fresh = () => `${pipeline.prefix}-fresh`;
  afterEach(async () => {
    await removePrefix(fresh());
  });

  it('holds the re-run of a title whose spaces the marketplace collapsed (exit 5, no POST)', async () => {
    const rows = [listing('Clay  Mug   Blue')];
    const first = await pipeline.cli(['run', await pipeline.csv('etsy.csv', rows, ETSY_COLUMNS)]);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const [made] = pipeline.products();
    expect(made).toMatchObject({ name: 'Clay Mug Blue' });
    pipeline.sandbox.resetStats();

    const held = await pipeline.cli(['run', await pipeline.csv('again.csv', rows, ETSY_COLUMNS)], {
      CATALOG_SYNC_PREFIX: fresh(),
    });

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toHaveLength(1);
    expect(held.stdout).toContain(
      `  held      row 1 (etsy:clay-mug-blue, "Clay  Mug   Blue") looks like product ${made?.id}, which has no SKU`,
    );
  });
});
