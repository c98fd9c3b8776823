import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { bySku, MAIN_SELLER, runReported, usePipeline } from '../support/pipeline.js';

/**
 * docs/running.md, Night after night: `--missing` may name other fields from one night to the next.
 * A product deactivated already that a later night's `--missing` gives more fields gets them, and
 * their former values are recorded beside the first ones: its return gives back every field
 * recorded, or says which one stays off. One given fewer fields keeps those it was given before.
 */
describe('--missing naming other fields on a later night, with the product still gone', () => {
  const pipeline = usePipeline();
  const FEED: CatalogRow[] = Array.from({ length: 4 }, (_, i) => ({
    sku: `B-${String(i + 1).padStart(4, '0')}`,
    name: `Item ${i + 1}`,
    price: String(10 + i),
    quantity: String(5 + i),
  }));
  const KEPT = FEED.slice(0, 2);
  const GONE = FEED.slice(2);
  const LOST_STATUS =
    'status had no value before: cannot be given back automatically if the product returns (give it in the source then)';
  const STAYS =
    /^reactivated; status stays inactive \(set by --missing on \d{4}-\d{2}-\d{2}; it had no value before\): give it a value in the source$/;

  async function night(rows: CatalogRow[], missing: string, ...extra: string[]) {
    const { result, lines } = await runReported(pipeline, rows, [
      '--missing',
      missing,
      '--max-missing',
      '60%',
      ...extra,
    ]);
    if (!extra.includes('--dry-run')) expect(result.stderr).toBe('');
    return { ...result, line: (sku: string) => lines.find((line) => line.key === sku) };
  }

  it('night 2 adds status: it is recorded as having no value, said, and on return said to stay off', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);

    const first = await night(KEPT, 'quantity=0');
    for (const row of GONE) expect(first.line(row.sku)).toMatchObject({ action: 'deactivate', note: '' });

    // A dry run says it of the deactivation it plans.
    const plan = await night(KEPT, 'quantity=0,status=inactive', '--dry-run');
    for (const row of GONE)
      expect(plan.line(row.sku)).toMatchObject({
        action: 'deactivate',
        status: 'planned',
        note: LOST_STATUS,
      });
    const second = await night(KEPT, 'quantity=0,status=inactive');
    expect(second.code).toBe(0);
    for (const row of GONE) {
      expect(second.line(row.sku)).toMatchObject({ action: 'deactivate', status: 'ok', note: LOST_STATUS });
      expect(bySku(pipeline.products()).get(row.sku)).toMatchObject({ quantity: 0, status: 'inactive' });
    }

    const back = await night(FEED, 'quantity=0,status=inactive');
    expect(back.code).toBe(0);
    for (const row of GONE) {
      expect(back.line(row.sku)).toMatchObject({ action: 'update', status: 'ok' });
      expect(back.line(row.sku)?.note).toMatch(STAYS);
      expect(bySku(pipeline.products()).get(row.sku)?.quantity).toBe(Number(row.quantity));
    }
    expect(back.stdout).toContain(
      '  still off 2 products back in the source keep a value --missing set, having none before to give back: see the note column',
    );
  });

  it('night 2 adds status the product had: its former value is given back with the quantity', async () => {
    const withStatus = FEED.map((row) => ({ ...row, status: 'active' }));
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', withStatus)])).code).toBe(0);
    expect((await night(KEPT, 'quantity=0')).code).toBe(0);
    const second = await night(KEPT, 'status=inactive');
    for (const row of GONE) expect(second.line(row.sku)).toMatchObject({ action: 'deactivate', note: '' });

    const back = await night(FEED, 'status=inactive');
    for (const row of GONE) {
      expect(back.line(row.sku)).toMatchObject({ action: 'update', status: 'ok', note: 'reactivated' });
      expect(bySku(pipeline.products()).get(row.sku)).toMatchObject({
        quantity: Number(row.quantity),
        status: 'active',
      });
    }
    expect(back.stdout).not.toContain('still off');
  });

  it('night 2 names fewer fields: those of night 1 are still given back on return', async () => {
    const withStatus = FEED.map((row) => ({ ...row, status: 'active' }));
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', withStatus)])).code).toBe(0);
    expect((await night(KEPT, 'quantity=0,status=inactive')).code).toBe(0);
    const second = await night(KEPT, 'quantity=0');
    for (const row of GONE)
      expect(second.line(row.sku)).toMatchObject({ action: 'deactivate', note: 'already so' });

    const back = await night(FEED, 'quantity=0');
    for (const row of GONE) {
      expect(back.line(row.sku)).toMatchObject({ action: 'update', status: 'ok', note: 'reactivated' });
      expect(bySku(pipeline.products()).get(row.sku)).toMatchObject({
        quantity: Number(row.quantity),
        status: 'active',
      });
    }
  });

  it("a value --missing set is not taken for one of the product's own when it is deactivated again", async () => {
    const bare = FEED.map(({ quantity: _, ...row }) => row);
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', bare)])).code).toBe(0);
    expect((await night(bare.slice(0, 2), 'quantity=0,status=inactive')).code).toBe(0);
    // A stock given by hand on the marketplace since: night 2 writes the quantity again, not the status.
    for (const product of pipeline.products().filter((p) => GONE.some((row) => row.sku === p.sku)))
      pipeline.sandbox.editProduct(MAIN_SELLER, String(product.id), { quantity: 3 });
    expect((await night(bare.slice(0, 2), 'quantity=0,status=inactive')).code).toBe(0);

    const back = await night(bare, 'quantity=0,status=inactive');
    for (const row of GONE) {
      expect(back.line(row.sku)).toMatchObject({ action: 'update', status: 'ok' });
      expect(back.line(row.sku)?.note).toMatch(STAYS);
      expect(bySku(pipeline.products()).get(row.sku)).toMatchObject({ quantity: 3, status: 'inactive' });
    }
  });
});
