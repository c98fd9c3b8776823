import { describe, expect, it } from 'vitest';
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

  it('`cancel` of a held run says that revert puts back what it sent', async () => {
    const runId = await heldRun();

    const cancelled = await pipeline.cli(['cancel', runId]);

    expect(cancelled.code).toBe(2);
    expect(cancelled.stderr).toContain(`\`revert ${runId}\` puts back what it sent`);
  });
});
