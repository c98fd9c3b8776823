import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

const HEADER = 'sku,name,price,stock';
const ROWS = ['A-1,Mug,5,3', 'A-2,Cup,6,4', 'A-3,Jug,7,5'];

// A generic `stock` column is read as quantity (presets/generic-header.ts). A seller whose products
// an older run sent `stock` to as a text field still lists it, so `--missing stock=0` passed the
// listed-fields check: the summary said `stock as quantity` and `1 deactivated`, and what was
// written was `stock: "0"`, the product's quantity never touched.
describe('an option naming a column the generic preset reads as another field', () => {
  const pipeline = usePipeline();

  async function write(name: string, text: string) {
    const path = join(pipeline.dir, name);
    await writeFile(path, text);
    return path;
  }

  /** The products as a run before the generic preset read `stock` made them: a text field `stock`. */
  async function olderRun() {
    const mapping = await write(
      'older.yml',
      'matchBy: sku\nfields:\n  sku: sku\n  name: name\n  price: price\n  stock: { column: stock, custom: true }\n',
    );
    const first = await write('first.csv', `${[HEADER, ...ROWS].join('\n')}\n`);
    const result = await pipeline.cli(['run', first, '--mapping', mapping]);
    expect(result.code, result.stderr).toBe(0);
    expect(bySku(pipeline.products()).get('A-3')).toMatchObject({ stock: '5' });
    expect(bySku(pipeline.products()).get('A-3')).not.toHaveProperty('quantity');
    pipeline.sandbox.resetStats();
    return write('night.csv', `${[HEADER, ...ROWS.slice(0, 2)].join('\n')}\n`);
  }

  it.each([
    [['--missing', 'stock=0', '--max-missing', '60%'], '--missing'],
    [['--fields', 'sku,stock'], '--fields'],
    [['--first', 'stock'], '--first'],
    [['--create-only-fields', 'stock'], '--create-only-fields'],
    [['--keep-remote-edits', 'stock'], '--keep-remote-edits'],
  ])(
    '%j is refused in one line naming the field the column is read as, exit 2, nothing sent',
    async (flags, option) => {
      const night = await olderRun();
      const before = pipeline.products();

      const result = await pipeline.cli(['run', night, ...flags]);
      expect(result.stderr.trim()).toBe(
        `catalog-sync: ${option}: stock: this source's stock column is read as quantity: name quantity`,
      );
      expect(result.code).toBe(2);
      expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
      expect(pipeline.products()).toEqual(before);
    },
  );

  it("a job file's missing: {stock: 0} is refused the same way", async () => {
    const night = await olderRun();
    const before = pipeline.products();
    const job = await write('nightly.yml', `source: ${night}\nmissing: {stock: 0}\nmaxMissing: 60%\n`);

    const result = await pipeline.cli(['run', '--job', job]);
    // Named where it was written: the cron line has no --missing.
    expect(result.stderr.trim()).toBe(
      "catalog-sync: missing in nightly.yml: stock: this source's stock column is read as quantity: name quantity",
    );
    expect(result.code).toBe(2);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(before);
  });

  it('--missing quantity=0 on that source deactivates the product gone, by its quantity', async () => {
    const night = await olderRun();
    const result = await pipeline.cli(['run', night, '--missing', 'quantity=0', '--max-missing', '60%']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('columns read as product fields: stock as quantity');
    expect(result.stdout).toContain('1 deactivated');
    expect(bySku(pipeline.products()).get('A-3')).toMatchObject({ quantity: 0, stock: '5' });
  });
});
