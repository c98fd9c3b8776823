import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { bySku, MAIN_SELLER, runReported, usePipeline } from '../support/pipeline.js';

/**
 * docs/running.md, Night after night: a product back in the source gets its former values back. One
 * whose `--missing` field had no value before (the marketplace product had none) has nothing to get
 * back: its row and the summary say it stays off, on every run, until the source gives a value.
 */
describe('--missing: a product that comes back with no former value to give back is not left off in silence', () => {
  const pipeline = usePipeline();
  const NQ = [
    { sku: 'A1', name: 'Mug', price: '1' },
    { sku: 'B2', name: 'Cup', price: '2' },
    { sku: 'C3', name: 'Jar', price: '3' },
  ];
  const MISSING = ['--missing', 'quantity=0', '--max-missing', '50%'];
  const DRY_RUN_NOTE =
    'catalog-sync: --dry-run: --max-missing 20% (default) acts on writes and is not applied: a dry run writes nothing and holds nothing\n';
  const STAYS =
    /^quantity stays 0 \(set by --missing on \d{4}-\d{2}-\d{2}; it had no value before\): give it a value in the source$/;

  async function run(rows: CatalogRow[], ...args: string[]) {
    const { result, lines, writes } = await runReported(pipeline, rows, args);
    // A dry run names the guard it does not apply: --missing's default --max-missing.
    expect(result.stderr).toBe(args.includes('--dry-run') ? DRY_RUN_NOTE : '');
    return { ...result, lines, line: (sku: string) => lines.find((line) => line.key === sku), writes };
  }

  it.each([
    ['the whole file', []],
    ['--fields sku,name,price', ['--fields', 'sku,name,price']],
  ])(
    '%s: the deactivation says it cannot be given back, and the returning row says it stays 0, night after night',
    async (_, fields) => {
      expect((await run(NQ)).code).toBe(0);

      const LOST =
        'quantity had no value before: cannot be given back automatically if the product returns (give it in the source then)';
      // A dry run says it too, of the deactivation it plans.
      const plan = await run(NQ.slice(0, 2), '--missing', 'quantity=0', ...fields, '--dry-run');
      expect(plan.line('C3')).toMatchObject({ action: 'deactivate', status: 'planned', note: LOST });
      const gone = await run(NQ.slice(0, 2), ...MISSING, ...fields);
      expect(gone.code).toBe(0);
      expect(
        pipeline.sandbox
          .requests()
          .filter((r) => r.method === 'PUT')
          .map((r) => r.body),
      ).toEqual([{ quantity: 0 }]);
      expect(gone.line('C3')).toMatchObject({ action: 'deactivate', status: 'ok', note: LOST });

      for (const night of [1, 2]) {
        const back = await run(NQ, ...MISSING, ...fields);
        expect(back.code, `night ${night}`).toBe(0);
        expect(back.writes).toMatchObject({ creates: 0, updates: 0 });
        expect(back.line('C3')).toMatchObject({ row: '3', action: 'unchanged', status: 'ok' });
        expect(back.line('C3')?.note).toMatch(STAYS);
        expect(back.stdout).toContain(
          '  still off 1 product back in the source keeps a value --missing set, having none before to give back: see the note column',
        );
      }
      expect(bySku(pipeline.products()).get('C3')?.quantity).toBe(0);

      // The source gives a value: sent, and the record is done with.
      const given = NQ.map((row) => ({ ...row, quantity: '4' }));
      const sent = await run(given, ...MISSING);
      expect(sent.line('C3')).toMatchObject({ action: 'update', status: 'ok', note: 'reactivated' });
      expect(bySku(pipeline.products()).get('C3')?.quantity).toBe(4);
      const quiet = await run(given, ...MISSING);
      expect(quiet.line('C3')).toMatchObject({ action: 'unchanged', note: '' });
      expect(quiet.stdout).not.toContain('still off');
    },
  );

  it('a quantity set by hand on the marketplace since: no note, and none again', async () => {
    expect((await run(NQ)).code).toBe(0);
    expect((await run(NQ.slice(0, 2), ...MISSING)).code).toBe(0);
    const c3 = pipeline.products().find((product) => product.sku === 'C3');
    pipeline.sandbox.editProduct(MAIN_SELLER, String(c3?.id), { quantity: 5 });

    for (const night of [1, 2]) {
      const back = await run(NQ, ...MISSING);
      expect(back.line('C3'), `night ${night}`).toMatchObject({ action: 'unchanged', note: '' });
      expect(back.stdout).not.toContain('still off');
    }
  });

  it('--fields sku,name,price: a quantity the product had is recorded, not sent again each night, and given back', async () => {
    const stocked = NQ.map((row, i) => ({ ...row, quantity: String(5 + i) }));
    expect((await run(stocked)).code).toBe(0);
    const fields = ['--fields', 'sku,name,price'];

    const first = await run(NQ.slice(0, 2), ...MISSING, ...fields);
    expect(first.line('C3')).toMatchObject({ action: 'deactivate', status: 'ok', note: '' });
    const second = await run(NQ.slice(0, 2), ...MISSING, ...fields);
    expect(second.writes.updates).toBe(0);
    expect(second.line('C3')).toMatchObject({ action: 'deactivate', status: 'ok', note: 'already so' });

    const back = await run(NQ, ...MISSING, ...fields);
    expect(back.line('C3')).toMatchObject({ action: 'update', status: 'ok', note: 'reactivated' });
    expect(bySku(pipeline.products()).get('C3')?.quantity).toBe(7);
  });
});
