import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';

const ABSENT_COLOR =
  '  absent    color: sent by earlier runs, not in this source (left as they are on the marketplace)';

/** Three rows with a `color` column, and one invalid row: `--max-invalid 0` holds the whole run. */
function coloredRows(): CatalogRow[] {
  const rows = catalogRows(3).map((row) => ({ ...row, color: 'red' }));
  return [...rows, { sku: 'BAD-1', name: 'Bad', price: 'not a price', color: 'blue' }];
}

/**
 * The `absent` line names the fields earlier runs sent: a run a guard held sent nothing until it is
 * approved, and a dry run sends nothing at all; neither makes its fields "sent by earlier runs".
 */
describe('the fields sent by earlier runs, and a run that sent nothing', () => {
  const pipeline = usePipeline();

  async function heldRun(): Promise<string> {
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('colored.csv', coloredRows()),
      '--max-invalid',
      '0',
    ]);
    expect(held.code, held.stderr).toBe(5);
    expect(pipeline.products()).toEqual([]);
    return runIdOf(held.stdout);
  }

  async function runWithoutColor() {
    const result = await pipeline.cli([
      'run',
      await pipeline.csv('plain.csv', catalogRows(3), ['sku', 'name', 'price']),
    ]);
    expect(result.code, result.stderr).toBe(0);
    return result;
  }

  it('a held run never approved: its fields were not sent, no absent line', { timeout: 60_000 }, async () => {
    await heldRun();

    const result = await runWithoutColor();

    expect(result.stdout).not.toContain('absent');
  });

  it('a held run once approved: its fields were sent, the next run names the one it lacks', {
    timeout: 60_000,
  }, async () => {
    const heldId = await heldRun();
    // The invalid row fails when approved (exit 1); the three others are created with their color.
    const approved = await pipeline.cli(['approve', heldId]);
    expect(approved.code, approved.stderr).toBe(1);
    expect(pipeline.products()).toHaveLength(3);

    const result = await runWithoutColor();

    expect(result.stdout).toContain(ABSENT_COLOR);
  });

  // A seller whose marketplace already matched the file (a migration, a products export sent back):
  // every row unchanged, the fields are on the marketplace as the source has them all the same.
  it('a run that found every row unchanged: the next run names the column it lacks', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(3).map((row) => ({ ...row, color: 'red' }));
    pipeline.sandbox.seedProducts(
      MAIN_SELLER,
      rows.map((row) => ({ sku: row.sku, name: row.name, price: Number(row.price), color: 'red' })),
    );
    const first = await pipeline.cli([
      'run',
      await pipeline.csv('colored.csv', rows, ['sku', 'name', 'price', 'color']),
    ]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/3 unchanged/);

    const result = await runWithoutColor();

    expect(result.stdout).toContain(ABSENT_COLOR);
  });

  it('a dry run sends nothing: no absent line after it', { timeout: 60_000 }, async () => {
    const dry = await pipeline.cli([
      'run',
      await pipeline.csv(
        'colored.csv',
        catalogRows(3).map((row) => ({ ...row, color: 'red' })),
      ),
      '--dry-run',
    ]);
    expect(dry.code, dry.stderr).toBe(0);

    const result = await runWithoutColor();

    expect(result.stdout).not.toContain('absent');
  });
});
