import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPROVAL_STOPPED_AFTER_MS } from '../../../src/defaults.js';
import { type ApprovalDeps, queueApproval, startApproval } from '../../../src/queue/approval.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { type RunRecord, RunStore } from '../../../src/runs/run-store.js';
import { type CatalogRow, catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, requestCounts, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/** Whole prices, never 0, so that /100 is a price the API takes and always a move of -99%. */
function goodCatalog(count: number): CatalogRow[] {
  return catalogRows(count).map((row, i) => ({ ...row, price: `${(10 + i) * 100}` }));
}

/** The same catalog with every price divided by 100: the shifted-decimal feed. */
function pricesOver100(rows: CatalogRow[]): CatalogRow[] {
  return rows.map((row) => ({ ...row, price: String(Number(row.price) / 100) }));
}

describe('guards: --max-price-change', () => {
  const pipeline = usePipeline();

  async function syncGoodThenBroken(count = 6) {
    const good = goodCatalog(count);
    expect((await pipeline.cli(['run', await pipeline.csv('good.csv', good)])).code).toBe(0);
    const before = pipeline.products();
    pipeline.sandbox.resetStats();
    const broken = await pipeline.cli([
      'run',
      await pipeline.csv('broken.csv', pricesOver100(good)),
      '--max-price-change',
      '50%',
      '--report',
      join(pipeline.dir, 'report.csv'),
    ]);
    return { good, before, broken };
  }

  /** What an earlier `approve` did to the run before it was stopped, done here with its deps. */
  async function asStoppedApprove(
    runId: string,
    step: (deps: ApprovalDeps, run: RunRecord) => Promise<unknown>,
  ): Promise<void> {
    await withRedis(async (redis) => {
      const keys = new RedisKeys(pipeline.prefix);
      const runs = new RunStore(redis, keys);
      const run = await runs.get(runId);
      if (!run) throw new Error(`no run ${runId}`);
      await step({ redis, keys, runs, prefix: pipeline.prefix }, run);
    });
  }

  it('holds every row whose price moved more, sends none of them, and exits 5', async () => {
    const { before, broken } = await syncGoodThenBroken();

    expect(broken.code).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(pipeline.products()).toEqual(before);
    expect(broken.stdout).toMatch(/^run \S+: held/m);
    expect(broken.stdout).toContain('6 held');
    const report = parseCsv(await pipeline.readText('report.csv'));
    expect(report.map((line) => line.status)).toEqual(Array(6).fill('held'));
    expect(report[0]).toMatchObject({
      row: '1',
      action: 'update',
      error: 'price 1000 → 10 (-99%) exceeds --max-price-change 50%',
    });
  });

  it('shows held and the reason in status, text and --json', async () => {
    const { broken } = await syncGoodThenBroken();
    const runId = runIdOf(broken.stdout);

    const json = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    const text = (await pipeline.cli(['status', runId])).stdout;

    expect(json).toMatchObject({
      state: 'held',
      heldReason: '6 rows held: their prices move more than --max-price-change 50%',
    });
    expect(text).toMatch(/^run \S+: held: 6 rows held: their prices move more than --max-price-change 50%$/m);
    expect(text).toContain(`catalog-sync approve ${runId}`);
  });

  it('approve sends the held prices, exits 0, and the report and status show the final outcomes', async () => {
    const { good, broken } = await syncGoodThenBroken();
    const runId = runIdOf(broken.stdout);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 6 });
    const prices = [...bySku(pipeline.products()).values()].map((p) => p.price);
    expect(prices).toEqual(pricesOver100(good).map((row) => Number(row.price)));
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.map((line) => `${line.action}:${line.status}`)).toEqual(Array(6).fill('update:ok'));
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'done', approvedAt: expect.any(Number) });
    expect(status.counts['status:held'] ?? 0).toBe(0);
    expect((await pipeline.cli(['approve', runId])).code).toBe(2);
  });

  it('an approve stopped after it marked the run approved, before it queued a write, is finished by the next', async () => {
    const { good, broken } = await syncGoodThenBroken();
    const runId = runIdOf(broken.stdout);
    // What the first approve did before it was killed: the run marked running for round 1, nothing queued.
    await asStoppedApprove(runId, (deps, run) =>
      startApproval(deps, run, null, Date.now() - APPROVAL_STOPPED_AFTER_MS + 5_000),
    );
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state).toBe('running');
    pipeline.sandbox.resetStats();

    // Too soon to tell a stopped approve from one still queueing: refused as two at once are.
    expect((await pipeline.cli(['approve', runId])).stderr).toContain(
      `run ${runId} is being approved by another approve (since `,
    );
    // One with --rows is told to keep them: without, once the run is held again, every held row goes.
    const withRows = await pipeline.cli(['approve', runId, '--rows', '2']);
    expect(withRows.stderr).toContain(
      'once that approval has ended, run this approve again with the same --rows',
    );
    expect(withRows.stderr).not.toContain('without --rows');
    await withRedis((redis) =>
      redis.hset(
        new RedisKeys(pipeline.prefix).run(runId),
        'approvedAt',
        Date.now() - APPROVAL_STOPPED_AFTER_MS,
      ),
    );
    // `status` says how to finish it.
    expect((await pipeline.cli(['status', runId])).stdout).toContain(
      `running: an approve stopped before it had queued its writes; \`catalog-sync approve ${runId}\` finishes it`,
    );

    expect((await pipeline.cli(['approve', runId, '--rows', '2'])).stderr).toContain(
      `finish it first with \`catalog-sync approve ${runId}\``,
    );
    const finished = await pipeline.cli(['approve', runId]);

    expect(finished.code).toBe(0);
    expect(finished.stderr).toContain(
      `an earlier approve of run ${runId} stopped before it had queued its writes`,
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 6 });
    const prices = [...bySku(pipeline.products()).values()].map((p) => p.price);
    expect(prices).toEqual(pricesOver100(good).map((row) => Number(row.price)));
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status.state).toBe('done');
    expect((await pipeline.cli(['approve', runId])).code).toBe(2);
  });

  it('an approve stopped once its writes were queued (Ctrl-C) is finished by the next, each write sent once', async () => {
    const { good, broken } = await syncGoodThenBroken();
    const runId = runIdOf(broken.stdout);
    // What the first approve did before it was stopped: every held write queued, none sent (no worker).
    await asStoppedApprove(runId, (deps, run) => queueApproval(deps, run, null));
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state).toBe('running');
    pipeline.sandbox.resetStats();

    const refused = await pipeline.cli(['approve', runId, '--rows', '2']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).not.toContain('without --rows');
    const finished = await pipeline.cli(['approve', runId]);

    expect(finished.code).toBe(0);
    expect(finished.stderr).toContain(
      `the writes of run ${runId}'s approval are queued already: sending them`,
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 6 });
    const prices = [...bySku(pipeline.products()).values()].map((p) => p.price);
    expect(prices).toEqual(pricesOver100(good).map((row) => Number(row.price)));
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state).toBe('done');
  });

  it('approve --rows while another approval is under way: retry the same --rows once it ended, never drop them', async () => {
    const { good, broken } = await syncGoodThenBroken();
    const runId = runIdOf(broken.stdout);
    // The first approve (--rows 4,5,6), held between queueing its writes and sending them.
    await asStoppedApprove(runId, (deps, run) => queueApproval(deps, run, [4, 5, 6]));
    pipeline.sandbox.resetStats();

    const refused = await pipeline.cli(['approve', runId, '--rows', '1,2']);

    expect(refused.code).toBe(2);
    const line = refused.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    // Before: "`catalog-sync approve <id>` (without --rows) sends them", which, once the first approval
    // had ended, sent every row still held, row 3 too, which nobody picked.
    expect(line).not.toContain('without --rows');
    expect(line).toContain(`run ${runId} is being approved by another approve`);
    expect(line).toContain('once that approval has ended, run this approve again with the same --rows');
    expect(line).toContain(`\`catalog-sync status ${runId}\``);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(0);

    // The approval under way ends (its queued writes sent), then the line is followed.
    expect((await pipeline.cli(['approve', runId])).code).toBe(5);
    expect((await pipeline.cli(['approve', runId, '--rows', '1,2'])).code).toBe(5);

    const prices = [...bySku(pipeline.products()).values()].map((p) => p.price);
    const sent = pricesOver100(good).map((row) => Number(row.price));
    expect(prices).toEqual([sent[0], sent[1], Number(good[2]?.price), sent[3], sent[4], sent[5]]);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.map((l) => l.status)).toEqual(['ok', 'ok', 'held', 'ok', 'ok', 'ok']);
  });

  it('approve --rows sends only those rows; the others stay held', async () => {
    const { broken } = await syncGoodThenBroken();
    const runId = runIdOf(broken.stdout);
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId, '--rows', '2,4']);

    // Writes are still held back: exit 5, as `run` ends a held run.
    expect(approved.code).toBe(5);
    expect(requestCounts(pipeline.sandbox.stats()).updates).toBe(2);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report.map((line) => line.status)).toEqual(['held', 'ok', 'held', 'ok', 'held', 'held']);
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status.state).toBe('held');
  });

  it('approve re-plans a product changed on the marketplace meanwhile', async () => {
    const { broken } = await syncGoodThenBroken(2);
    const runId = runIdOf(broken.stdout);
    const [first, second] = parseCsv(await pipeline.readText('report.csv'));
    // Someone fixed row 1's price by hand already, and renamed row 2's product.
    pipeline.sandbox.editProduct(MAIN_SELLER, first?.product_id ?? '', { price: 10 });
    pipeline.sandbox.editProduct(MAIN_SELLER, second?.product_id ?? '', { name: 'Renamed by hand' });
    pipeline.sandbox.resetStats();

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    const puts = pipeline.sandbox.requests().filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(report[0]).toMatchObject({ action: 'unchanged', status: 'ok' });
    expect(report[0]?.note).toContain('re-planned');
    expect(report[1]).toMatchObject({ action: 'update', status: 'ok' });
    expect(report[1]?.note).toContain('re-planned');
    expect(bySku(pipeline.products()).get('SKU-00002')).toMatchObject({
      price: 11,
      name: expect.not.stringContaining('by hand'),
    });
  });

  it('a guard that does not trip lets the run through with the same requests as without it', async () => {
    const good = goodCatalog(5);
    await pipeline.cli(['run', await pipeline.csv('good.csv', good)]);
    const changed = good.map((row, i) => (i < 2 ? { ...row, price: `${Number(row.price) + 1}` } : row));
    const source = await pipeline.csv('changed.csv', [...changed, ...catalogRows(2, 50)]);
    pipeline.sandbox.resetStats();

    const guarded = await pipeline.cli(['run', source, '--max-price-change', '50%', '--max-updates', '50%']);

    expect(guarded.code).toBe(0);
    expect(guarded.stdout).toContain('rows      7: 2 created, 2 updated, 3 unchanged');
    expect(requestCounts(pipeline.sandbox.stats())).toEqual({ lists: 1, creates: 2, updates: 2, total: 5 });
  });
});

describe('guards: whole-run guards', () => {
  const pipeline = usePipeline();

  it('--max-updates 10% over a feed that changes most products: nothing written, exit 5, held', async () => {
    const good = goodCatalog(10);
    await pipeline.cli(['run', await pipeline.csv('good.csv', good)]);
    const renamed = good.map((row, i) => (i < 8 ? { ...row, name: `${row.name} (new)` } : row));
    const source = await pipeline.csv('renamed.csv', [...renamed, ...catalogRows(1, 90)]);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['run', source, '--max-updates', '10%']);

    expect(result.code).toBe(5);
    expect(pipeline.sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    const reason = '8 of 10 products would be updated (80%), more than --max-updates 10%: nothing was sent';
    expect(result.stdout).toContain(`held      ${reason}`);
    const runId = runIdOf(result.stdout);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    const held = report.filter((line) => line.status === 'held');
    expect(held.map((line) => line.action)).toEqual([...Array(8).fill('update'), 'create']);
    expect(new Set(held.map((line) => line.error))).toEqual(new Set([reason]));
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status.state).toBe('held');
  });

  it('--max-invalid 2 with 3 invalid rows: held, nothing written', async () => {
    const rows = [...catalogRows(3), ...[1, 2, 3].map((n) => ({ sku: `BAD-${n}`, name: 'x', price: 'abc' }))];

    const result = await pipeline.cli(['run', await pipeline.csv('bad.csv', rows), '--max-invalid', '2']);

    expect(result.code).toBe(5);
    expect(result.stdout).toContain('3 of 6 rows are invalid (50%), more than --max-invalid 2');
    expect(pipeline.products()).toEqual([]);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
  });

  it('import + worker honour a guard, and approve then sends the writes', async () => {
    const imported = await pipeline.cli([
      'import',
      await pipeline.csv('new.csv', catalogRows(4)),
      '--max-updates',
      '0',
      '--max-invalid',
      '0%',
    ]);
    const runId = runIdOf(imported.stdout);
    // Creates only: --max-updates 0 does not trip; a 0% invalid limit neither, with none invalid.
    const worker = pipeline.spawn(['worker']);
    await expect
      .poll(async () => JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state, {
        timeout: 30_000,
      })
      .toBe('done');
    worker.process.kill('SIGTERM');
    expect(pipeline.products()).toHaveLength(4);

    const changed = catalogRows(4).map((row) => ({ ...row, name: `${row.name}!` }));
    const second = runIdOf(
      (await pipeline.cli(['import', await pipeline.csv('changed.csv', changed), '--max-updates', '1']))
        .stdout,
    );
    const worker2 = pipeline.spawn(['worker']);
    await expect
      .poll(async () => JSON.parse((await pipeline.cli(['status', second, '--json'])).stdout).state, {
        timeout: 30_000,
      })
      .toBe('held');
    worker2.process.kill('SIGTERM');
    await worker2.exited;
    expect(pipeline.sandbox.requests().filter((r) => r.method === 'PUT')).toEqual([]);

    expect((await pipeline.cli(['approve', second])).code).toBe(0);
    expect(pipeline.sandbox.requests().filter((r) => r.method === 'PUT')).toHaveLength(4);
  });
});
