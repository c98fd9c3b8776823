import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { bySku, MAIN_SELLER, usePipeline } from '../support/pipeline.js';

/** An ERP's export of products already on the marketplace, under its own headers. */
const ROWS = catalogRows(10).map((row) => ({
  Ref: row.sku,
  Title: row.name,
  Cost: row.price,
  Stock: '2',
  Stoff: 'oak',
  Hoehe: '40',
}));
const MAPPING = 'fields:\n  sku: Ref\n  name: Title\n  price: Cost\n';

describe("a mapping file's target fields", () => {
  const pipeline = usePipeline();

  async function seeded() {
    pipeline.sandbox.seedProducts(
      MAIN_SELLER,
      ROWS.map((row) => ({ sku: row.Ref, name: row.Title, price: Number(row.Cost), quantity: 9 })),
    );
    pipeline.sandbox.resetStats();
    // Its own headers, none a product field's: the rows are no CatalogRow (sku, name, price).
    return pipeline.csv('m10.csv', ROWS as never[]);
  }

  async function mappingFile(fields: string) {
    const path = join(pipeline.dir, 'map.yml');
    await writeFile(path, `${MAPPING}${fields}`);
    return path;
  }

  it.each([[[]], [['--dry-run']]])(
    'a misspelt product field (quantiy) is refused in one line, exit 2, nothing asked or sent %j',
    async (flags) => {
      const source = await seeded();
      const before = pipeline.products();
      const map = await mappingFile('  quantiy: Stock\n');

      const result = await pipeline.cli(['run', source, '--mapping', map, ...flags]);
      expect(result.code).toBe(2);
      // Named by the path the command line gives, not its base name alone.
      expect(result.stderr.trim()).toBe(
        `catalog-sync: ${map}: fields.quantiy: no product field is named so; the nearest field is quantity (to send a field named quantiy all the same, give it custom: true)`,
      );
      expect(result.stdout).toBe('');
      expect(pipeline.sandbox.stats().total).toBe(0);
      expect(pipeline.products()).toEqual(before);
    },
  );

  it('sends a custom field far from every product field, and a near one given custom: true', async () => {
    const source = await seeded();
    const map = await mappingFile(
      '  quantity: Stock\n  material: Stoff\n  height: { column: Hoehe, custom: true }\n',
    );

    const result = await pipeline.cli(['run', source, '--mapping', map]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('10 updated');
    for (const product of bySku(pipeline.products()).values())
      expect(product).toMatchObject({ quantity: 2, material: 'oak', height: '40' });
  });
});
