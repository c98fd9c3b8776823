import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

const NOT_APPLIED = '  deactivate none: --missing not applied, the source was not read to the end';

/** A CSV of `rows`, each with a description long enough that the rows pass the 64 KiB sniffed. */
function csvText(rows: CatalogRow[]): string {
  const lines = rows.map((row) => `${row.sku},Item ${row.sku},${row.price},3,${'d'.repeat(300)}`);
  return `sku,name,price,quantity,description\n${lines.join('\n')}\n`;
}

describe('--missing in a run that ends early says it deactivated nothing, in the summary and `status`', () => {
  const pipeline = usePipeline();

  it('a source that breaks half way (an unclosed quote): the summary, `status` and `status --json` say so', async () => {
    const managed = catalogRows(10);
    const first = await pipeline.cli(['run', await pipeline.csv('first.csv', managed)]);
    expect(first.code, first.stderr).toBe(0);
    // The first five again, then new rows, then a quote never closed: the other five look gone.
    const rows = [...managed.slice(0, 5), ...catalogRows(400, 100)];
    const path = join(pipeline.dir, 'broken.csv');
    await writeFile(path, `${csvText(rows)}SKU-09999,"Item never closed,1.00,3,d\n`, 'utf8');
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['run', path, '--missing', 'quantity=0', '--max-missing', '90%']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--missing deactivated nothing');
    const id = runIdOf(result.stdout);
    expect(result.stdout).toContain(`run ${id}: ended early after`);
    expect(result.stdout).toContain(`${NOT_APPLIED}\n`);
    // The five products the source no longer holds (SKU-00006..10) kept their quantity.
    expect(pipeline.products().filter((product) => product.quantity === 0)).toHaveLength(0);

    const status = await pipeline.cli(['status', id]);
    expect(status.stdout).toContain(`${NOT_APPLIED}\n`);
    const json = await pipeline.cli(['status', id, '--json']);
    const record = JSON.parse(json.stdout);
    expect(record.missingNotApplied).toBe('the source was not read to the end');
    // Planned first (--missing weighs its deactivations before any write), then ended early: every
    // row read is settled, none left out of the counts (the planned ones are reported not sent).
    expect(record.settled).toBe(record.total);
    expect(record.total).toBeGreaterThanOrEqual(405);
  });

  it('a cancelled run: `cancel` ends it, and `status` says --missing was not applied', async () => {
    const managed = catalogRows(10);
    const first = await pipeline.cli(['run', await pipeline.csv('first.csv', managed)]);
    expect(first.code, first.stderr).toBe(0);
    const imported = await pipeline.cli([
      'import',
      await pipeline.csv('later.csv', managed.slice(0, 5)),
      '--missing',
      'quantity=0',
      '--max-missing',
      '90%',
    ]);
    expect(imported.code, imported.stderr).toBe(0);
    const id = imported.stdout.trim();

    const cancelled = await pipeline.cli(['cancel', id]);

    expect(cancelled.code, cancelled.stderr).toBe(0);
    const status = await pipeline.cli(['status', id]);
    expect(status.stdout).toContain('  deactivate none: --missing not applied, the run was cancelled\n');
    expect(pipeline.products().filter((product) => product.quantity === 0)).toHaveLength(0);
  });
});
