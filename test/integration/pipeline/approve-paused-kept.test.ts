import { utimes } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { CatalogRow } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';

const PRODUCTS = 20;
const MOVED = 15;

/** P-1…P-20 at 11…30: the seller's products, and the file's rows before any change. */
function catalog(): CatalogRow[] {
  return Array.from({ length: PRODUCTS }, (_, i) => ({
    sku: `P-${i + 1}`,
    name: `Product ${i + 1}`,
    price: `${i + 11}`,
  }));
}

/** The night's file: the first 15 prices ten times higher (a move --max-price-change 50% holds). */
function nightly(): CatalogRow[] {
  return catalog().map((row, i) => (i < MOVED ? { ...row, price: String(Number(row.price) * 10) } : row));
}

/**
 * An approved run waiting out the daily limit is the seller's decision, not last night's values: a
 * changed file of its source read meanwhile does not supersede it (a held run is never superseded,
 * and an approved one is not either). Its approved writes go first, once; the new run reads the
 * products after them, so that it does not hold the same rows again, and writes its own change after.
 */
describe('an approved run paused on the daily limit, and a changed file of its source', () => {
  const DAY_MS = 1500;
  // The sandbox's clock stands still (no reset while the test looks) until the test moves it a day on.
  let sandboxNow = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  // 2 requests a day: the held run's list read, then the approve's: no approved write goes that day.
  const pipeline = usePipeline({ dailyLimit: 2, dayLengthMs: DAY_MS, now: () => sandboxNow });

  async function writeNightly(rows: CatalogRow[], night: number): Promise<string> {
    const path = await pipeline.csv('dn4.csv', rows);
    const at = new Date(Date.UTC(2026, 0, night, 2));
    await utimes(path, at, at);
    return path;
  }

  const statusOf = async (id: string) => JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout);

  it('is not superseded: its 15 writes are sent once, the new run holds none of them and writes its own change after', {
    timeout: 60_000,
  }, async () => {
    pipeline.sandbox.seedProducts(
      MAIN_SELLER,
      catalog().map(({ sku, name, price }) => ({ sku, name, price: Number(price) })),
    );
    const guard = ['--max-price-change', '50%', '--no-wait'];
    const held = await pipeline.cli(['run', await writeNightly(nightly(), 1), ...guard]);
    expect(held.code, held.stderr).toBe(5);
    const heldId = runIdOf(held.stdout);
    const approve = await pipeline.cli(['approve', heldId, '--no-wait']);
    expect(approve.code, approve.stderr).toBe(4);
    expect((await statusOf(heldId)).approvedQueued).toBe(MOVED);

    // The next night: one cell of the file changed, read while the seller is still paused.
    const changed = nightly().map((row, i) =>
      i === PRODUCTS - 1 ? { ...row, name: 'Product 20 renamed' } : row,
    );
    const tonight = await pipeline.cli(['run', await writeNightly(changed, 2), ...guard], {
      LOG_LEVEL: 'info',
    });
    expect(tonight.code, tonight.stderr).toBe(4);
    // Its log's lines (LOG_LEVEL info) come first: the id is that of the run whose rows stay queued.
    const tonightId = runIdOf(/Run (\S+)'s rows stay queued/.exec(tonight.stderr)?.[0] ?? '');
    expect(tonightId).not.toBe(heldId);
    // Waiting out the limit, or (the sandbox's reset said in whole seconds) queued once the pause ran out.
    expect(tonight.stderr).toMatch(
      new RegExp(
        `run ${heldId} of this source was approved and (waits out the daily limit|is queued): not superseded; ` +
          "its approved writes go first, this run's after",
      ),
    );
    // Its writes wait for the approved ones (`status` says it too).
    expect(tonight.stderr).toContain(`run ${tonightId} waits for run ${heldId} of the same seller to end`);
    expect((await statusOf(tonightId)).waitsForRun).toBe(heldId);
    const kept = await statusOf(heldId);
    expect(kept).toMatchObject({ state: 'running', approvedQueued: MOVED });
    expect(kept.supersededBy).toBeUndefined();

    // The reset: a worker-like `run` of the same file writes both runs, the approved one first.
    pipeline.sandbox.setFaults({ dailyLimit: null });
    sandboxNow += DAY_MS;
    pipeline.sandbox.resetStats();
    const after = await pipeline.cli(['run', await writeNightly(changed, 2), '--max-price-change', '50%']);
    expect(after.code, after.stdout + after.stderr).toBe(0);

    expect(await statusOf(heldId)).toMatchObject({ state: 'done', counts: { updated: MOVED } });
    const second = await statusOf(tonightId);
    expect(second.state).toBe('done');
    expect(second.counts).toMatchObject({ updated: 1, unchanged: PRODUCTS - 1, held: 0 });
    const puts = pipeline.sandbox.requests().filter((request) => request.method === 'PUT');
    // The 15 approved writes, once each, then the changed name: 16 PUTs, the rename last.
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(MOVED + 1);
    expect(new Set(puts.slice(0, MOVED).map((request) => request.query.id)).size).toBe(MOVED);
    expect(
      puts.slice(0, MOVED).every((request) => Number((request.body as { price?: unknown }).price) >= 110),
    ).toBe(true);
    expect(puts.at(-1)?.body).toMatchObject({ name: 'Product 20 renamed' });
    const products = bySku(pipeline.products());
    expect(products.get('P-1')?.price).toBe(110);
    expect(products.get('P-20')).toMatchObject({ name: 'Product 20 renamed', price: 30 });
  });
});
