import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, requestCounts, usePipeline } from '../support/pipeline.js';

/** 10 products this tool made and manages, each with a status the `--missing` values change. */
const MANAGED = catalogRows(10).map((row) => ({ ...row, status: 'active' }));
const KEPT = MANAGED.slice(0, 5);
const DROPPED = MANAGED.slice(5);
const NEW = catalogRows(1, 100).map((row) => ({ ...row, status: 'active' }));

describe('--max-missing holds the whole run (CONTRACT: "deactivating more than this holds the whole run")', () => {
  const pipeline = usePipeline();

  it('5 of 10 gone: nothing is sent, not even the creates and updates; approve sends all of it', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', MANAGED)])).code).toBe(0);
    const before = pipeline.products();
    pipeline.sandbox.resetStats();

    // 5 dropped (50% of the managed, more than the default 20%), 2 prices changed, 1 new row.
    const changed = KEPT.map((row, i) => (i < 2 ? { ...row, price: `${100 + i}.00` } : row));
    const feed = await pipeline.csv('later.csv', [...changed, ...NEW]);
    const held = await pipeline.cli(['run', feed, '--missing', 'status=inactive']);

    expect(held.code, held.stdout + held.stderr).toBe(5);
    expect(held.stdout).toMatch(/^run \S+: held/m);
    expect(held.stdout).toContain(
      '5 of 10 managed products would be deactivated (50%), more than --max-missing 20%: nothing was sent',
    );
    // No change at all on the marketplace: no create, no PUT.
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(pipeline.products()).toEqual(before);
    const runId = runIdOf(held.stdout);
    const report = parseCsv((await pipeline.cli(['report', runId])).stdout);
    expect(
      report
        .filter((l) => l.status === 'held')
        .map((l) => l.action)
        .sort(),
    ).toEqual(['create', ...Array(5).fill('deactivate'), 'update', 'update']);
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'held' });
    expect(status.heldReason).toMatch(/^5 of 10 managed products would be deactivated \(50%\)/);

    pipeline.sandbox.resetStats();
    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code, approved.stdout + approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`approved 3 held rows and 5 held deactivations of run ${runId}`);
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 1, updates: 7 });
    const after = bySku(pipeline.products());
    for (const row of DROPPED) expect(after.get(row.sku)?.status).toBe('inactive');
    expect(after.get(KEPT[0]?.sku ?? '')?.price).toBe(100);
    expect(after.get(KEPT[1]?.sku ?? '')?.price).toBe(101);
    for (const row of KEPT) expect(after.get(row.sku)?.status).toBe('active');
    expect(after.get(NEW[0]?.sku ?? '')).toMatchObject({ status: 'active' });
  });
});
