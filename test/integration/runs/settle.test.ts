import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RowOutcome } from '../../../src/interfaces.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { decodeOutcome, RunStore } from '../../../src/runs/run-store.js';
import { type GatheredWrite, rowWrite } from '../../../src/runs/settle-batch.js';
import { runSpec } from '../../support/run-record.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const rig = usePrefixedRedis();
let redis: Redis;
let keys: RedisKeys;
let runs: RunStore;

beforeEach(() => {
  redis = rig.redis;
  keys = new RedisKeys(rig.prefix);
  runs = new RunStore(redis, keys);
});

const unchanged = (row: number): RowOutcome => ({
  row,
  key: `SKU-${row}`,
  action: 'unchanged',
  productId: `p${row}`,
  status: 'ok',
  error: '',
});
const failed = (row: number): RowOutcome => ({
  row,
  key: `SKU-${row}`,
  action: 'create',
  productId: null,
  status: 'failed',
  error: 'HTTP 500',
});

/**
 * The settle counts each row once, whatever a call carries (issue 9 claims): its script reads and
 * writes the rows of a call together (issue 31), so a row twice in one call, or a row settled by an
 * earlier call, must still count once, and long calls must not pass Lua's unpack limit.
 */
describe('RunStore.settle', () => {
  it('fenced by a chunk attempt’s job lock: settles while the lock is its own or ran out, not once another attempt holds it (its requests still count)', async () => {
    const { id } = await runs.create(runSpec());
    // Any key of the run's slot: the test stands in for BullMQ's lock of the chunk's job.
    const lockKey = `${keys.run(id)}:test-lock`;
    const fence = { lockKey, tokens: new Set(['a:1', 'a:2']) };
    await runs.countRequest(id, true);

    await redis.set(lockKey, 'b:1');
    expect(await runs.settle(id, [failed(1)], undefined, [], fence)).toEqual({ settledNow: 0, settled: 0 });
    expect(await runs.get(id)).toMatchObject({ settled: 0, requests: 1 });

    // Another of its own attempts (one waiting for it) holds it, or nobody since it ran out.
    await redis.set(lockKey, 'a:2');
    expect((await runs.settle(id, [failed(1)], undefined, [], fence)).settledNow).toBe(1);
    await redis.del(lockKey);
    expect((await runs.settle(id, [unchanged(2)], undefined, [], fence)).settledNow).toBe(1);
    // Unfenced: settles whoever holds the lock.
    await redis.set(lockKey, 'b:1');
    expect((await runs.settle(id, [unchanged(3)])).settledNow).toBe(1);
  });

  it('counts a row twice in one call once, the first outcome kept, and a retried call not at all', async () => {
    const { id } = await runs.create(runSpec());
    const told: RowOutcome[] = [];
    runs.onSettled = (outcomes) => told.push(...outcomes);
    const sources = new Map([[2, ['SKU-2', 'first']]]);

    const first = await runs.settle(
      id,
      [unchanged(1), failed(2), { ...unchanged(2), productId: 'p2' }],
      sources,
    );
    expect(first).toEqual({ settledNow: 2, settled: 2 });
    expect(told.map((o) => [o.row, o.action])).toEqual([
      [1, 'unchanged'],
      [2, 'create'],
    ]);

    const again = await runs.settle(id, [unchanged(1), failed(2), unchanged(3)], sources);
    expect(again).toEqual({ settledNow: 1, settled: 3 });
    expect(told.map((o) => o.row)).toEqual([1, 2, 3]);

    const run = await runs.get(id);
    expect(run?.settled).toBe(3);
    expect(run?.counts).toEqual({
      'action:create': 1,
      'action:unchanged': 2,
      'pair:create:failed': 1,
      'pair:unchanged:ok': 2,
      'status:failed': 1,
      'status:ok': 2,
    });
    const stored = await redis.hgetall(keys.outcomes(id));
    expect(Object.keys(stored).sort()).toEqual(['1', '2', '3']);
    expect(decodeOutcome(2, stored['2'] as string)).toMatchObject({ action: 'create', status: 'failed' });
    // Every product a row touched is recorded, the second outcome of row 2 too; the failed row's values once.
    expect((await redis.smembers(keys.touched(id))).sort()).toEqual(['p1', 'p2', 'p3']);
    expect(await redis.hkeys(keys.failedSources(id))).toEqual(['2']);
  });

  it('settles 6,000 rows in one call (36,000 arguments, past what Lua unpacks at once)', async () => {
    const { id } = await runs.create(runSpec());
    const outcomes = Array.from({ length: 6000 }, (_, i) => unchanged(i + 1));
    expect(await runs.settle(id, outcomes)).toEqual({ settledNow: 6000, settled: 6000 });
    expect(await runs.settle(id, outcomes)).toEqual({ settledNow: 0, settled: 6000 });
    expect((await runs.get(id))?.counts['action:unchanged']).toBe(6000);
    expect(await redis.scard(keys.touched(id))).toBe(6000);
  });

  it("writes the rows' records and the requests counted in the step that settles them", async () => {
    const { id } = await runs.create(runSpec());
    const record = `${rig.prefix}:records`;
    const gathered: GatheredWrite<[string, string]> = {
      write: (writes, items) => writes.hset(record, items.flat()),
    };
    await runs.countRequest(id, true);
    await runs.countRequest(id, false);

    await runs.settle(id, [unchanged(1), unchanged(2)], undefined, [
      rowWrite(gathered, ['a', '1']),
      rowWrite(gathered, ['b', '2']),
    ]);
    // Records alone (a row paused after its write) settle nothing and still land.
    expect(await runs.settle(id, [], undefined, [rowWrite(gathered, ['a', '3'])])).toEqual({
      settledNow: 0,
      settled: 2,
    });

    expect(await redis.hgetall(record)).toEqual({ a: '3', b: '2' });
    expect(await runs.get(id)).toMatchObject({ requests: 2, writes: 1, settled: 2 });
  });

  it('a chunk handed out twice that settles after the run ended (its outcomes packed) counts nothing again', async () => {
    const { id } = await runs.create(runSpec());
    const rows = Array.from({ length: 20 }, (_, i) => unchanged(i + 1));
    await runs.markProduced(id, rows.length);
    expect(await runs.settle(id, rows)).toEqual({ settledNow: 20, settled: 20 });
    await runs.finish(id);
    // Packed at the end: the rows' own fields are gone.
    expect(await redis.hexists(keys.outcomes(id), '1')).toBe(0);
    const before = await runs.get(id);

    await runs.countRequest(id, false);
    expect(await runs.settle(id, rows)).toEqual({ settledNow: 0, settled: 20 });

    const after = await runs.get(id);
    expect(after?.settled).toBe(20);
    expect(after?.counts).toEqual(before?.counts);
    // The late copy's requests were spent, and are counted.
    expect(after?.requests).toBe((before?.requests ?? 0) + 1);
  });

  it('adds a missing line or settles a deactivation twice in one call once, and none again when retried', async () => {
    const { id } = await runs.create(runSpec());
    const line = (
      productId: string,
      action: 'missing' | 'deactivate',
      status: 'ok' | 'failed',
    ): RowOutcome => ({
      row: null,
      key: `SKU-${productId}`,
      action,
      productId,
      status,
      error: status === 'failed' ? 'HTTP 500' : '',
    });
    await redis.hset(keys.deactivations(id), { p1: '1', p2: '1', p5: '1' });

    const settling = [
      line('p1', 'deactivate', 'ok'),
      line('p1', 'deactivate', 'ok'),
      line('p2', 'deactivate', 'failed'),
    ];
    expect(await runs.addMissing(id, settling, true)).toBe(1);
    expect(await runs.addMissing(id, settling, true)).toBe(1);
    const lines = [line('p3', 'missing', 'ok'), line('p3', 'missing', 'ok'), line('p4', 'missing', 'ok')];
    await runs.addMissing(id, lines);
    await runs.addMissing(id, lines);

    expect(await redis.hkeys(keys.deactivations(id))).toEqual(['p5']);
    expect(await redis.zcard(keys.missing(id))).toBe(4);
    expect((await runs.get(id))?.counts).toEqual({
      'action:deactivate': 2,
      'action:missing': 2,
      'pair:deactivate:failed': 1,
      'pair:deactivate:ok': 1,
    });
  });
});
