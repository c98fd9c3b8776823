import { describe, expect, it } from 'vitest';
import { type CatalogRow, catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

/** Whole prices, never 0, so that /100 is a price the API takes and always a move of -99%. */
function goodCatalog(count: number): CatalogRow[] {
  return catalogRows(count).map((row, i) => ({ ...row, price: `${(10 + i) * 100}` }));
}

/** The same catalog with every price divided by 100: the shifted-decimal feed. */
function pricesOver100(rows: CatalogRow[]): CatalogRow[] {
  return rows.map((row) => ({ ...row, price: String(Number(row.price) / 100) }));
}

describe('approve: what changed since the hold', () => {
  const pipeline = usePipeline();

  /** The good catalog synced, then the broken feed held by --max-price-change: every row held. */
  async function heldRun(good: CatalogRow[]): Promise<string> {
    expect((await pipeline.cli(['run', await pipeline.csv('good.csv', good)])).code).toBe(0);
    const broken = await pipeline.cli([
      'run',
      await pipeline.csv('broken.csv', pricesOver100(good)),
      '--max-price-change',
      '50%',
    ]);
    expect(broken.code).toBe(5);
    return runIdOf(broken.stdout);
  }

  it('a held row whose product a later run read in its source is not written: no PUT, the note names that run', async () => {
    const good = goodCatalog(5);
    const heldId = await heldRun(good);
    const ids = new Map(pipeline.products().map((p) => [String(p.sku), String(p.id)]));
    // The corrected feed of the first two products runs after the hold: row 1 at a new price.
    const corrected = [{ ...good[0], price: '1249' }, good[1]] as CatalogRow[];
    const later = await pipeline.cli(['run', await pipeline.csv('corrected.csv', corrected)]);
    expect(later.code).toBe(0);
    const laterId = runIdOf(later.stdout);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', heldId]);

    expect(approved.code).toBe(0);
    const puts = pipeline.sandbox.requests().filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.query.id).sort()).toEqual(
      good
        .slice(2)
        .map((row) => ids.get(row.sku))
        .sort(),
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 3 });
    const prices = [...bySku(pipeline.products()).values()].map((p) => p.price);
    expect(prices).toEqual([1249, 1100, 12, 13, 14]);
    const report = parseCsv((await pipeline.cli(['report', heldId])).stdout);
    const note = `superseded by run ${laterId}, whose source has it: not written`;
    expect(report.slice(0, 2)).toEqual(
      good.slice(0, 2).map((row, i) => ({
        row: String(i + 1),
        key: row.sku,
        action: 'skipped',
        product_id: ids.get(row.sku),
        status: 'ok',
        error: '',
        note,
      })),
    );
    expect(report.slice(2).map((line) => `${line.action}:${line.status}:${line.note}`)).toEqual(
      Array(3).fill('update:ok:'),
    );
    const status = JSON.parse((await pipeline.cli(['status', heldId, '--json'])).stdout);
    expect(status.state).toBe('done');
    expect(status.counts['status:held'] ?? 0).toBe(0);
  });

  it('a held row whose product was edited by hand since, in a field the write sends, is written with the re-plan note', async () => {
    const good = goodCatalog(3);
    const heldId = await heldRun(good);
    const edited = pipeline.products().find((p) => p.sku === good[1]?.sku);
    // The same fields would be sent, with the same values: only the product's price moved.
    pipeline.sandbox.editProduct(MAIN_SELLER, String(edited?.id), { price: 1300 });
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', heldId, '--rows', '2']);

    // Rows 1 and 3 stay held: the run's end state, as `run` would exit on it.
    expect(approved.code).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(1);
    expect(bySku(pipeline.products()).get(good[1]?.sku ?? '')).toMatchObject({ price: 11 });
    const report = parseCsv((await pipeline.cli(['report', heldId])).stdout);
    expect(report.map((line) => line.status)).toEqual(['held', 'ok', 'held']);
    expect(report[1]).toMatchObject({
      action: 'update',
      note: 'changed on the marketplace since it was held: re-planned',
    });
  });
});
