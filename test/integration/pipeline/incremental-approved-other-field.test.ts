import { afterEach, describe, expect, it } from 'vitest';
import { type Gate, gate } from '../../support/gate.js';
import type { CatalogRow } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

const S1: CatalogRow[] = [
  { sku: 'A1', name: 'Alpha', price: '10.00' },
  { sku: 'B2', name: 'Beta', price: '20.00' },
];
/** Made by the run matching by name, once approved: recorded in the id map of `name` only. */
const BY_NAME: CatalogRow[] = [
  { sku: 'N1', name: 'Nu', price: '30.00' },
  { sku: 'N2', name: 'Xi', price: '40.00' },
];

/**
 * An `--incremental` run's full read is the record only while no run matching by another field wrote
 * since it began (docs/options.md `--incremental`). A run held by a guard before that read, approved
 * while it is under way, writes after it began: its approval's end, not its hold, is when it wrote last.
 */
describe('--incremental, and a run by another field approved during its full read', () => {
  /** The incremental run's first create (A1) waits for this gate while it is set: its read is over then. */
  let firstCreate: Gate | null = null;
  let reached: Gate = gate();
  const pipeline = usePipeline({
    hold: (request) => {
      if (!firstCreate || request.method !== 'POST' || !/"sku":"A1"/.test(request.body ?? ''))
        return undefined;
      reached.open();
      return firstCreate.promise;
    },
  });

  afterEach(() => {
    // A test that failed half way leaves no run waiting on the gate.
    firstCreate?.open();
    firstCreate = null;
  });

  it('the next --incremental run reads the products: what the approval created is not created again', {
    timeout: 60_000,
  }, async () => {
    // Run A, by name: held (one invalid row over --max-invalid 0), nothing sent.
    const invalid = { sku: 'N3', name: 'Omicron', price: 'not a price' };
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('by-name.csv', [...BY_NAME, invalid]),
      '--match-by',
      'name',
      '--max-invalid',
      '0',
    ]);
    expect(held.code, held.stderr).toBe(5);
    const heldId = runIdOf(held.stdout);
    expect(pipeline.products()).toEqual([]);

    // Run B, by sku, --incremental: no record yet, so it reads the products (none), then creates.
    firstCreate = gate();
    reached = gate();
    const source = await pipeline.csv('s1.csv', S1);
    const incremental = pipeline.cli(['run', source, '--incremental']);
    await reached.promise;
    // B's read is over; A is approved and creates its products before B ends.
    const approved = await pipeline.cli(['approve', heldId]);
    expect(approved.code, approved.stderr).toBe(1);
    expect(pipeline.products().map((p) => p.sku)).toEqual(expect.arrayContaining(['N1', 'N2']));
    firstCreate.open();
    const first = await incremental;
    expect(first.code, first.stderr).toBe(0);
    expect(pipeline.products()).toHaveLength(4);
    pipeline.sandbox.resetStats();

    // The next --incremental run by sku, whose source now has A's products too.
    const next = await pipeline.cli([
      'run',
      await pipeline.csv('s2.csv', [...S1, ...BY_NAME]),
      '--incremental',
    ]);

    expect(next.code, next.stderr).toBe(0);
    // Before: it relied on B's record, which lacks N1 and N2, and created them a second time.
    const skus = pipeline.products().map((p) => String(p.sku));
    expect(skus.sort()).toEqual(['A1', 'B2', 'N1', 'N2']);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0 });
    expect(next.stdout).toContain(
      'incremental products read: a run matching by name wrote since the last full read',
    );
  });
});
