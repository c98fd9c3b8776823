import { describe, expect, it } from 'vitest';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { changingRun, nameAndPrice, putsSinceReset, RUN_ROWS } from './support.js';

describe('`revert <run-id>` of a run that changed prices and names and created products', () => {
  const pipeline = usePipeline();

  it('puts the old names and prices back with one PUT per product of only those fields, and lists the created', async () => {
    const { runId, ids } = await changingRun(pipeline);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId]);

    expect(result.code).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 20 });
    expect(nameAndPrice(pipeline, 'MUG')).toEqual({ name: 'Mug', price: 5 });
    expect(nameAndPrice(pipeline, 'NEW-1')).toEqual({ name: 'Shelf', price: 15 });
    expect(putsSinceReset(pipeline)).toEqual([
      { id: ids.get('LAMP'), body: { name: 'Desk lamp', price: 20 }, status: 200 },
      { id: ids.get('MUG'), body: { price: 5 }, status: 200 },
    ]);
    expect(result.stdout.trim().split('\n')).toEqual([
      `product ${ids.get('LAMP')} (LAMP): put back name "Desk lamp", price 20`,
      `product ${ids.get('MUG')} (MUG): put back price 5`,
      `product ${ids.get('NEW-1')} (NEW-1): created by the run: not deleted, the API has no delete`,
      `product ${ids.get('NEW-2')} (NEW-2): created by the run: not deleted, the API has no delete`,
      'reverted 2 products (3 fields), 0 fields left alone, 2 created products listed',
    ]);
  });

  it('keeps a field edited on the marketplace after the run, and says so', async () => {
    const { runId, ids } = await changingRun(pipeline);
    pipeline.sandbox.editProduct(MAIN_SELLER, ids.get('LAMP') ?? '', { name: 'Lamp (edited by hand)' });
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId]);

    expect(result.code).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Lamp (edited by hand)', price: 20 });
    expect(putsSinceReset(pipeline)).toContainEqual({
      id: ids.get('LAMP'),
      body: { price: 20 },
      status: 200,
    });
    expect(result.stdout).toContain(
      `product ${ids.get('LAMP')} (LAMP): put back price 20; name changed since the run: kept`,
    );
    expect(result.stdout).toContain('1 field left alone');
    expect((await pipeline.cli(['status', runId])).stdout).toMatch(
      /^ {2}reverted {2}reverted at \S+Z: 2 products put back, 1 field left alone, 2 created products listed$/m,
    );
  });

  it('sends no PUT the second time, only the read, and status lists both reverts in order', async () => {
    const { runId } = await changingRun(pipeline);
    await pipeline.cli(['revert', runId]);
    pipeline.sandbox.resetStats();

    const again = await pipeline.cli(['revert', runId]);

    expect(again.code).toBe(0);
    expect(putsSinceReset(pipeline)).toEqual([]);
    expect(pipeline.sandbox.stats().total).toBeGreaterThan(0);
    expect(again.stdout).toMatch(/^nothing to put back: reverted 0 products/m);
    expect(again.stdout).toContain('(LAMP): nothing to put back (as before the run)');
    const status = await pipeline.cli(['status', runId]);
    const reverts = status.stdout.split('\n').filter((line) => line.startsWith('  reverted '));
    expect(reverts.map((line) => line.replace(/at \S+Z:/, 'at T:'))).toEqual([
      '  reverted  reverted at T: 2 products put back, 0 fields left alone, 2 created products listed',
      '  reverted  reverted at T: 0 products put back, 2 already as before, 0 fields left alone, 2 created products listed',
    ]);
    const json = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(json.reverts.map((revert: { counts: object }) => revert.counts)).toEqual([
      expect.objectContaining({ reverted: 2, alreadyBack: 0 }),
      expect.objectContaining({ reverted: 0, alreadyBack: 2 }),
    ]);
    expect(json.reverts[0].at).toBeLessThanOrEqual(json.reverts[1].at);
    expect(json.revertCounts).toMatchObject({ reverted: 0, alreadyBack: 2, created: 2 });
    expect(typeof json.revertedAt).toBe('number');
  });

  it('--dry-run prints what it would put back and writes nothing', async () => {
    const { runId, ids } = await changingRun(pipeline);
    pipeline.sandbox.resetStats();

    const dry = await pipeline.cli(['revert', runId, '--dry-run']);

    expect(dry.code).toBe(0);
    expect(putsSinceReset(pipeline)).toEqual([]);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp, brass', price: 22.5 });
    expect(dry.stdout).toContain(
      `product ${ids.get('LAMP')} (LAMP): would put back name "Desk lamp", price 20`,
    );
    expect(dry.stdout).toContain('dry run: would revert 2 products (3 fields)');
    const json = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(json.revertedAt).toBeUndefined();
  });

  it('after a revert, the same file run again updates the same products again', async () => {
    const { runId } = await changingRun(pipeline);
    await pipeline.cli(['revert', runId]);

    const rerun = await pipeline.cli(['run', await pipeline.csv('again.csv', RUN_ROWS)]);

    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain('0 created, 2 updated, 3 unchanged');
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp, brass', price: 22.5 });
  });
});
