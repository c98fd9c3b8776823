import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { type RunSpec, RunStore } from '../../../src/runs/run-store.js';
import { CreateClaims } from '../../../src/sync/create-claims.js';
import { IdMap } from '../../../src/sync/id-map.js';
import { mayRelyOnRecord, noteFullRead, recordFullRead } from '../../../src/sync/incremental.js';
import { matchSpaceOf, productsRecorded } from '../../../src/sync/match-space.js';
import { runSpec } from '../../support/run-record.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const REF = 'spaces-seller';
const WEEK = 7 * 86_400_000;

describe('one id map per match field', () => {
  const rig = usePrefixedRedis();
  let redis: Redis;
  let keys: RedisKeys;
  let runs: RunStore;

  beforeEach(() => {
    redis = rig.redis;
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });

  const spec = (overrides: Partial<RunSpec>) => runSpec({ sellerRef: REF, ...overrides });

  it('a key of one field is never found as a key of another, nor claimed against its entry', async () => {
    const sku = await runs.create(spec({ matchBy: 'sku' }));
    const skuSpace = await matchSpaceOf(redis, keys, REF, 'sku', sku.id);
    const nameSpace = await matchSpaceOf(redis, keys, REF, 'name', sku.id);
    await new IdMap(redis, keys, REF, skuSpace).remember('Lamp', { id: '1', sent: { sku: 'Lamp' } });

    const byName = new IdMap(redis, keys, REF, nameSpace);
    expect(skuSpace).toBe('');
    expect(nameSpace).toBe('~name');
    expect(await byName.getMany(['Lamp'])).toEqual(new Map());
    expect(await byName.keysOfIds(['1'])).toEqual(new Map());
    const claim = await new CreateClaims(redis, keys, REF, Date.now, 30_000, null, nameSpace).claim(
      'Lamp',
      'r',
    );
    expect(claim.kind).toBe('claimed');
    expect(await productsRecorded(redis, keys, REF)).toBe(1);
    await byName.remember('Lamp', { id: '2', sent: { name: 'Lamp' } });
    expect(await productsRecorded(redis, keys, REF)).toBe(2);
  });

  it('a new seller’s first field keeps the old key names', async () => {
    const run = await runs.create(spec({ matchBy: 'barcode' }));
    expect(await matchSpaceOf(redis, keys, REF, 'barcode', run.id)).toBe('');
    expect(await redis.get(keys.idMapHome(REF))).toBe('barcode');
  });

  it('a dry run decides no home and notes no field: it reads the space the next real run would', async () => {
    const dry = await runs.create(spec({ matchBy: 'name', dryRun: true }));
    expect(await matchSpaceOf(redis, keys, REF, 'name', dry.id, true)).toBe('');
    expect(await redis.exists(keys.idMapHome(REF), keys.idMapFields(REF))).toBe(0);

    const real = await runs.create(spec({ matchBy: 'sku' }));
    expect(await matchSpaceOf(redis, keys, REF, 'sku', real.id)).toBe('');
    expect(await matchSpaceOf(redis, keys, REF, 'name', dry.id, true)).toBe('~name');
    expect(await redis.exists(keys.idMapFields(REF))).toBe(0);
  });

  it('an id map from before spaces is the field of the latest earlier run that could write it', async () => {
    await new IdMap(redis, keys, REF).remember('Lamp', { id: '1', sent: {} });
    await runs.create(spec({ matchBy: 'name' }), 1_000);
    await runs.create(spec({ matchBy: 'mpn', dryRun: true }), 2_000);
    const now = await runs.create(spec({ matchBy: 'sku' }), 3_000);

    expect(await matchSpaceOf(redis, keys, REF, 'sku', now.id)).toBe('~sku');
    expect(await matchSpaceOf(redis, keys, REF, 'name', now.id)).toBe('');
  });

  it('an id map from before spaces with no run left to say is the SKUs’', async () => {
    await new IdMap(redis, keys, REF).remember('Lamp', { id: '1', sent: {} });
    const run = await runs.create(spec({ matchBy: 'name' }));
    expect(await matchSpaceOf(redis, keys, REF, 'name', run.id)).toBe('~name');
  });
});

describe('the record of an --incremental full read', () => {
  const rig = usePrefixedRedis();
  let redis: Redis;
  let keys: RedisKeys;
  let runs: RunStore;

  beforeEach(() => {
    redis = rig.redis;
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });

  /** An incremental run by `matchBy` whose full read began at `at`, ended; resolves to the next run's verdict. */
  async function fullReadThenNext(at: number, matchBy = 'sku') {
    const full = await runs.create(runSpec({ sellerRef: REF, incremental: true, fullReadAfterMs: WEEK }), at);
    await noteFullRead(redis, keys, full.id, at);
    await runs.finish(full.id, at + 10);
    await recordFullRead(redis, keys, (await runs.get(full.id))!);
    const next = runSpec({ sellerRef: REF, incremental: true, fullReadAfterMs: WEEK, matchBy });
    return mayRelyOnRecord(redis, keys, await runs.create(next, at + 20), at + 20);
  }

  it('is relied on by a run of the same field only', async () => {
    expect((await fullReadThenNext(Date.now())).rely).toBe(true);
    expect(await fullReadThenNext(Date.now(), 'name')).toEqual({
      rely: false,
      line: 'products read: the last full read matched by sku, this run by name',
    });
  });

  it('is void when a run by another field could write after the read began: running, held, or ended since', async () => {
    const before = Date.now() - 60_000;
    const at = Date.now();
    for (const [state, finishedAt] of [
      ['running', null],
      ['held', before],
      ['done', at + 5],
    ] as const) {
      const other = await runs.create(runSpec({ sellerRef: REF, matchBy: 'name' }), before);
      await redis.hset(keys.run(other.id), { state, ...(finishedAt ? { finishedAt } : {}) });

      const verdict = await fullReadThenNext(at);

      expect(verdict.rely, state).toBe(false);
      expect(verdict.line).toContain('a run matching by name wrote since the last full read');
      await redis.hset(keys.run(other.id), { state: 'done', finishedAt: before });
    }
  });

  it('stands when the other field’s runs ended before the read began, or were dry runs', async () => {
    const before = Date.now() - 60_000;
    const ended = await runs.create(runSpec({ sellerRef: REF, matchBy: 'name' }), before);
    await runs.finish(ended.id, before + 1_000);
    await runs.create(runSpec({ sellerRef: REF, matchBy: 'name', dryRun: true }), before);

    expect((await fullReadThenNext(Date.now())).rely).toBe(true);
  });
});
