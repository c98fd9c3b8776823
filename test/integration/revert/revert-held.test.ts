import { describe, expect, it } from 'vitest';
import { fourPricedRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { nameAndPrice, putsSinceReset, SEEDED } from './support.js';

/** A broken feed: every name rewritten (let through), one price ×12 (held by --max-price-change 50%). */
const BROKEN_ROWS = [
  { sku: 'LAMP', name: 'WRONG Desk lamp', price: '20' },
  { sku: 'MUG', name: 'WRONG Mug', price: '60' },
  { sku: 'CHAIR', name: 'WRONG Chair', price: '40' },
];

describe('`revert` of a run a guard held', () => {
  const pipeline = usePipeline();

  /** The broken feed run against the seeded products: held (exit 5); resolves to its run id. */
  async function heldRun(): Promise<string> {
    pipeline.sandbox.seedProducts('seller-main', SEEDED);
    const source = await pipeline.csv('broken.csv', BROKEN_ROWS);
    const held = await pipeline.cli(['run', source, '--max-price-change', '50%']);
    expect(held.code).toBe(5);
    return runIdOf(held.stdout);
  }

  it('puts back what the guard let through, and the held rows are never sent afterwards', async () => {
    const runId = await heldRun();
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'WRONG Desk lamp', price: 20 });
    pipeline.sandbox.resetStats();

    const reverted = await pipeline.cli(['revert', runId]);

    // Before: "has not ended (held): revert it once it has", exit 2, and the only way out was
    // `approve`, which sends the held price first.
    expect(reverted.code).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 20 });
    expect(nameAndPrice(pipeline, 'CHAIR')).toEqual({ name: 'Chair', price: 40 });
    // MUG's whole write was held: nothing of it was sent, so nothing is put back.
    expect(nameAndPrice(pipeline, 'MUG')).toEqual({ name: 'Mug', price: 5 });
    expect(putsSinceReset(pipeline).map((put) => put.body)).toEqual([
      { name: 'Desk lamp' },
      { name: 'Chair' },
    ]);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(2);
    expect(approved.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`run ${runId} was reverted: its held rows are not sent`)),
    ]);
    expect(putsSinceReset(pipeline)).toEqual([]);
    expect(nameAndPrice(pipeline, 'MUG')).toEqual({ name: 'Mug', price: 5 });
  });

  it('`status` of a reverted held run says its held writes are not sent, and suggests no `approve`', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', fourPricedRows(0))])).code).toBe(0);
    // R-1's price ×12 (held by the row guard), R-2 renamed (sent), R-4 gone: its deactivation is
    // held with the run (--missing).
    const [r1, r2, r3] = fourPricedRows(0);
    const rows = [{ ...r1!, price: '120' }, { ...r2!, name: 'R 2, renamed' }, r3!];
    const guards = ['--missing', 'quantity=0', '--max-missing', '50%', '--max-price-change', '50%'];
    const held = await pipeline.cli(['run', await pipeline.csv('second.csv', rows), ...guards]);
    expect(held.code, held.stdout + held.stderr).toBe(5);
    const runId = runIdOf(held.stdout);
    // Exit 5: the run is held again, by its deactivation.
    expect((await pipeline.cli(['approve', runId, '--rows', '1'])).code).toBe(5);
    expect((await pipeline.cli(['revert', runId])).code).toBe(0);
    expect((await pipeline.cli(['approve', runId])).code).toBe(2);

    const status = await pipeline.cli(['status', runId]);

    expect(status.code).toBe(0);
    // Before: `held: no row held; 1 deactivation held with the run (--missing): \`approve\` without
    // --rows sends it`, and an `approve` line: both suggest a command that is refused.
    expect(status.stdout).toContain(
      `run ${runId}: held, then reverted: what it held (1 deactivation) is not sent; run its source again to send what it should\n`,
    );
    expect(status.stdout).not.toContain('approve');
  });

  it('`cancel` of a held run says that revert puts back what it sent', async () => {
    const runId = await heldRun();

    const cancelled = await pipeline.cli(['cancel', runId]);

    expect(cancelled.code).toBe(2);
    expect(cancelled.stderr).toContain(`\`revert ${runId}\` puts back what it sent`);
  });
});
