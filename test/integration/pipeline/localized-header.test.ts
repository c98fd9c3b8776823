import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { usePipeline } from '../support/pipeline.js';

/** Issue 17: a WooCommerce export from a Russian-language store runs like an English one. */
describe('run on a WooCommerce export with a Russian header', () => {
  const pipeline = usePipeline();

  it('detects the preset, says how it read the header, and syncs its rows; a re-run writes nothing', async () => {
    const source = join(pipeline.dir, 'export.csv');
    await writeFile(
      source,
      'ID,Тип,Артикул,Имя,Опубликован,Видимость в каталоге,Акционная цена,Базовая цена\n' +
        '1,simple,CUP-1,Чашка,1,visible,,12.50\n' +
        "2,simple,CUP-2,Кружка,'-1,visible,,9\n",
      'utf8',
    );

    const first = await pipeline.cli(['run', source]);
    const second = await pipeline.cli(['run', source]);

    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      "preset woocommerce (detected from columns Тип, Имя, Базовая цена, Артикул: WooCommerce's Russian column names)",
    );
    expect(pipeline.products()).toMatchObject([
      { sku: 'CUP-1', name: 'Чашка', price: 12.5, status: 'active' },
      { sku: 'CUP-2', name: 'Кружка', price: 9, status: 'draft' },
    ]);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('rows      2: 0 created, 0 updated, 2 unchanged');
  });
});
