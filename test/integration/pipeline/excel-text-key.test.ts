import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

// An ERP export writes its text cells as Excel formulas, `="00123"`, so that Excel keeps their
// leading zeros. Read as written, the product was created with the SKU `="00123"`, and a clean
// export of the same catalog the next night created it again as `00123`.
describe('a SKU written as Excel text (`="00123"`)', () => {
  const pipeline = usePipeline();

  async function sync(name: string, csv: string) {
    const path = join(pipeline.dir, name);
    await writeFile(path, csv);
    const before = requestCounts(pipeline.sandbox.stats());
    const result = await pipeline.cli(['run', path]);
    expect(result.code, result.stderr).toBe(0);
    const after = requestCounts(pipeline.sandbox.stats());
    return { creates: after.creates - before.creates, updates: after.updates - before.updates };
  }

  it('creates the product under its text, and a clean export of it the next night finds it', async () => {
    const wrapped = 'sku,name,price,barcode\r\n"=""00123""",Mug,1.00,="4006381333931"\r\n';
    expect(await sync('erp.csv', wrapped)).toMatchObject({ creates: 1 });
    expect([...bySku(pipeline.products()).values()]).toMatchObject([
      { sku: '00123', barcode: '4006381333931' },
    ]);

    const clean = 'sku,name,price,barcode\n00123,Mug,1.00,4006381333931\n';
    expect(await sync('clean.csv', clean)).toEqual({ creates: 0, updates: 0 });
    // And back to the ERP's export: still the one product, unchanged.
    expect(await sync('erp-again.csv', wrapped)).toEqual({ creates: 0, updates: 0 });
    expect(bySku(pipeline.products()).size).toBe(1);
  });
});
