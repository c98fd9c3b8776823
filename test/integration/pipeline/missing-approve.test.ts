import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { addChunk, type ChunkJobData } from '../../../src/runs/chunk-job.js';
import { sellerQueueName } from '../../../src/sellers/seller-ref.js';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/**
 * 20 products with a stock of their own (5 to 11, `stock_level`: a generic file's `stock` is the
 * quantity), so that a deactivation and its revert are seen.
 */
const FEED = catalogRows(20).map((row, i) => ({ ...row, stock_level: String(5 + (i % 7)) }));
const KEPT = FEED.slice(0, 12);
const DROPPED = FEED.slice(12);

describe('approve sends the deactivations --max-missing held', () => {
  const pipeline = usePipeline();

  function idOf(sku: string): string {
    const product = pipeline.products().find((p) => p.sku === sku);
    if (!product) throw new Error(`no product ${sku}`);
    return String(product.id);
  }

  async function heldNight() {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    pipeline.sandbox.resetStats();
    // 8 of 20 managed products gone (40%, more than the default 20%): held, nothing written.
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('kept.csv', KEPT),
      '--missing',
      'stock_level=0',
    ]);
    expect(held.code).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    return runIdOf(held.stdout);
  }

  async function reportOf(runId: string) {
    return parseCsv((await pipeline.cli(['report', runId])).stdout).filter((line) => line.row === '');
  }

  it('sends exactly the due PUTs, the report says deactivate ok, the run is done, a second approve is exit 2', async () => {
    const runId = await heldNight();
    expect((await reportOf(runId)).map((l) => `${l.action}:${l.status}`)).toEqual(
      Array(8).fill('deactivate:held'),
    );
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved 0 held rows and 8 held deactivations of run ${runId}`);
    const puts = pipeline.sandbox.requests().filter((r) => r.method === 'PUT');
    expect(puts.map((r) => r.body)).toEqual(Array(8).fill({ stock_level: '0' }));
    expect(requestCounts(pipeline.sandbox.stats()).creates).toBe(0);
    const stocks = bySku(pipeline.products());
    for (const row of DROPPED) expect(stocks.get(row.sku)?.stock_level).toBe('0');
    for (const row of KEPT) expect(stocks.get(row.sku)?.stock_level).toBe(row.stock_level);
    const lines = await reportOf(runId);
    // In ascending product id (README, The report): the ids follow the order the concurrent creates
    // reached the API in, not necessarily the rows' order.
    const byId = [...DROPPED].sort((a, b) => Number(idOf(a.sku)) - Number(idOf(b.sku)));
    expect(lines.map((l) => [l.key, l.action, l.status])).toEqual(
      byId.map((row) => [row.sku, 'deactivate', 'ok']),
    );
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'done', approvedAt: expect.any(Number) });
    expect(status.counts).toMatchObject({ deactivated: 8, deactivateHeld: 0 });

    expect((await pipeline.cli(['approve', runId])).code).toBe(2);

    // revert puts the approved deactivations back.
    pipeline.sandbox.resetStats();
    expect((await pipeline.cli(['revert', runId])).code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(8);
    const back = bySku(pipeline.products());
    for (const row of FEED) expect(back.get(row.sku)?.stock_level).toBe(row.stock_level);
  });

  it('re-checks each product as it is then: one already so and one back in the source are not written', async () => {
    const runId = await heldNight();
    const alreadyZero = DROPPED[0] as (typeof FEED)[number];
    const cameBack = DROPPED[1] as (typeof FEED)[number];
    pipeline.sandbox.editProduct(MAIN_SELLER, idOf(alreadyZero.sku), { stock_level: '0' });
    // A later night's feed has one of them again (without --missing: it deactivates nothing itself).
    const later = await pipeline.cli(['run', await pipeline.csv('later.csv', [...KEPT, cameBack])]);
    expect(later.code).toBe(0);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(6);
    const lines = new Map((await reportOf(runId)).map((l) => [l.key, l]));
    expect(lines.get(alreadyZero.sku)).toMatchObject({
      action: 'deactivate',
      status: 'ok',
      note: 'already so',
    });
    expect(lines.get(cameBack.sku)).toMatchObject({
      action: 'deactivate',
      status: 'ok',
      note: `back in the source since run ${runIdOf(later.stdout)}: not written`,
    });
    expect(bySku(pipeline.products()).get(cameBack.sku)?.stock_level).toBe(cameBack.stock_level);
  });

  it('a later run that read a product and wrote nothing of it (cancelled before a worker took it) does not bring it back', async () => {
    const runId = await heldNight();
    const cameBack = DROPPED[1] as (typeof FEED)[number];
    const imported = await pipeline.cli(['import', await pipeline.csv('later.csv', [cameBack])]);
    expect(imported.code).toBe(0);
    expect((await pipeline.cli(['cancel', runIdOf(imported.stdout)])).code).toBe(0);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(8);
    const lines = new Map((await reportOf(runId)).map((l) => [l.key, l]));
    expect(lines.get(cameBack.sku)).toMatchObject({ action: 'deactivate', status: 'ok', note: '' });
    expect(bySku(pipeline.products()).get(cameBack.sku)?.stock_level).toBe('0');
  });

  it('a run held by another guard: approve sends its rows and its deactivations, and the run ends done', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', FEED)])).code).toBe(0);
    const repriced = FEED.slice(0, 18).map((row, i) => (i < 3 ? { ...row, price: '99.00' } : row));
    const guarded = ['--max-updates', '1', '--missing', 'stock_level=0', '--max-missing', '50%'];
    const held = await pipeline.cli(['run', await pipeline.csv('repriced.csv', repriced), ...guarded]);
    expect(held.code).toBe(5);
    const runId = runIdOf(held.stdout);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain(`approved 3 held rows and 2 held deactivations of run ${runId}`);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 5 });
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({
      state: 'done',
      counts: { updated: 3, held: 0, deactivated: 2, deactivateHeld: 0 },
    });
  });

  it('a second job holding the same products (queued again by a stopped finaliser or approve) sends none of them twice', async () => {
    const runId = await heldNight();
    const { sellerRef } = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    // What a finaliser or an approve stopped while it queued them leaves behind: the products in a job
    // of another id, here one of an earlier round, waiting beside the ones this approve queues.
    await withRedis(async (redis) => {
      const queue = new Queue<ChunkJobData>(sellerQueueName(sellerRef), {
        connection: redis,
        prefix: pipeline.prefix,
      });
      const items = DROPPED.map((row) => ({ id: idOf(row.sku), key: row.sku }));
      await addChunk(queue, { runId, chunk: 3, rows: [], phase: 'deactivate', round: 9, deactivate: items });
      await queue.close();
    });
    // Slow answers: both jobs are surely under way before the first PUT is answered.
    pipeline.sandbox.setFaults({ latencyMs: 150 });
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code, approved.stderr).toBe(0);
    const puts = pipeline.sandbox.requests().filter((r) => r.method === 'PUT');
    const ids = (ids: string[]) => ids.sort((a, b) => Number(a) - Number(b));
    expect(ids(puts.map((r) => String(r.query.id)))).toEqual(ids(DROPPED.map((row) => idOf(row.sku))));
    const lines = await reportOf(runId);
    expect(lines.map((l) => `${l.action}:${l.status}`)).toEqual(Array(8).fill('deactivate:ok'));
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state).toBe('done');
  });

  it('approve --rows leaves held deactivations held (they have no row number)', async () => {
    const runId = await heldNight();
    const result = await pipeline.cli(['approve', runId, '--rows', '1']);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toMatch(/row 1 of run \S+ is not held/);
    expect(pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0).toBe(0);
  });
});
