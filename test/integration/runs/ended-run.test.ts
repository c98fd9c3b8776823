import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { HeldRows } from '../../../src/guards/held-rows.js';
import type { RowOutcome } from '../../../src/interfaces.js';
import { productsListed } from '../../../src/runs/ended-run.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { PACKED_BLOCK_ROWS } from '../../../src/runs/packed-outcomes.js';
import { RunStore } from '../../../src/runs/run-store.js';
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

/** Mostly unchanged rows, with an update, a failure, a noted unchanged row and a create among them. */
function outcomeOf(row: number): RowOutcome {
  const key = `SKU-${row}`;
  const productId = String(5000 + row * 3);
  if (row % 97 === 0) return { row, key, action: 'update', productId, status: 'ok', error: '' };
  if (row % 89 === 0)
    return { row, key, action: 'create', productId: null, status: 'failed', error: 'HTTP 500' };
  if (row % 83 === 0) return { row, key, action: 'unchanged', productId, status: 'ok', error: '', note: 'n' };
  if (row === 7) return { row, key, action: 'unchanged', productId: 'abc-7', status: 'ok', error: '' };
  return { row, key, action: 'unchanged', productId, status: 'ok', error: '' };
}

async function allLines(id: string): Promise<RowOutcome[]> {
  const lines: RowOutcome[] = [];
  for await (const line of runs.outcomes(id)) lines.push(line);
  return lines;
}

async function settledRun(total: number, spec = runSpec()): Promise<string> {
  const run = await runs.create(spec);
  const outcomes = Array.from({ length: total }, (_, i) => outcomeOf(i + 1));
  for (let first = 0; first < total; first += 500)
    await runs.settle(run.id, outcomes.slice(first, first + 500));
  await runs.markProduced(run.id, total);
  return run.id;
}

describe('a run that ends', () => {
  it('keeps its report line for line while its unchanged rows are packed', async () => {
    const total = 2 * PACKED_BLOCK_ROWS + 300;
    const id = await settledRun(total);
    const before = await allLines(id);
    expect(await redis.hlen(keys.outcomes(id))).toBe(total);
    await runs.finish(id);
    expect(await allLines(id)).toEqual(before);
    expect(before).toEqual(Array.from({ length: total }, (_, i) => outcomeOf(i + 1)));
    // Three block fields, and a field of its own for each row that is not a plain unchanged one.
    const own = before.filter((o) => o.action !== 'unchanged' || o.note).length;
    expect(await redis.hlen(keys.outcomes(id))).toBe(own + 3);
    // Ended twice (a finalisation tried again): nothing moves, the report is the same.
    await runs.finish(id);
    expect(await allLines(id)).toEqual(before);
    expect((await runs.get(id))?.counts['action:unchanged']).toBe(
      before.filter((o) => o.action === 'unchanged').length,
    );
  });

  it('keeps no more of its outcomes than their fields take, for its 7 days', async () => {
    const total = 8 * PACKED_BLOCK_ROWS;
    const id = await settledRun(total);
    await runs.finish(id);
    const outcomes = keys.outcomes(id);
    const ttl = await redis.pttl(outcomes);
    expect(ttl).toBeGreaterThan(0);
    // A copy written from the hash's fields is sized to them (the copy's name as long: MEMORY USAGE
    // counts the name). The packed hash is no larger but for a table doubling Redis may leave half
    // done (8 bytes a slot, a table of the next power of two above its fields): which of the two
    // does depends on the order Redis keeps the fields in, so on the server's hash seed. Keeping
    // the table of its 8,192 rows would cost 64 KiB more.
    const copy = `${outcomes.slice(0, -1)}X`;
    await redis.restore(copy, 0, await redis.dumpBuffer(outcomes));
    const usage = async (key: string) => Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    const halfDoneTable = 8 * 2 ** Math.ceil(Math.log2(await redis.hlen(outcomes)));
    expect(await usage(outcomes)).toBeLessThanOrEqual((await usage(copy)) + halfDoneTable);
    expect(await redis.pttl(outcomes)).toBeLessThanOrEqual(ttl);
    expect(await redis.pttl(outcomes)).toBeGreaterThan(ttl - 60_000);
    expect((await allLines(id)).length).toBe(total);
  });

  it('does not pack a run held by a guard: approve settles its rows again', async () => {
    const id = await settledRun(50);
    await runs.finish(id, Date.now(), { held: true });
    expect(await redis.hlen(keys.outcomes(id))).toBe(50);
  });

  it('drops its copy of the products, keeping how many it listed for revert', async () => {
    const id = await settledRun(10);
    await redis.hset(keys.products(id), '1', '{}', '2', '{}', '3', '{}');
    await redis.hset(keys.keyToId(id), 'SKU-1', '1');
    await redis.sadd(keys.touched(id), '1');
    await redis.sadd(keys.sourceKeys(id), 'SKU-1');
    await redis.sadd(keys.unsoldKeys(id), 'SKU-2');
    await runs.finish(id);
    const left = await redis.exists(
      keys.products(id),
      keys.keyToId(id),
      keys.touched(id),
      keys.sourceKeys(id),
      keys.unsoldKeys(id),
    );
    expect(left).toBe(0);
    expect(await productsListed(redis, keys, id)).toBe(3);
  });

  it('keeps its source keys while an earlier run of the seller may still be approved', async () => {
    const held = await settledRun(5);
    await runs.finish(held, Date.now(), { held: true });
    const other = await settledRun(5, runSpec({ sellerRef: 'another-seller' }));
    await redis.sadd(keys.sourceKeys(other), 'SKU-1');
    await redis.zadd(keys.runs, Date.now() + 1000, other);
    await redis.hset(keys.run(other), 'createdAt', Date.now() + 1000);
    await runs.finish(other);
    expect(await redis.exists(keys.sourceKeys(other))).toBe(0);
    const later = await settledRun(5);
    await redis.zadd(keys.runs, Date.now() + 2000, later);
    await redis.hset(keys.run(later), 'createdAt', Date.now() + 2000);
    await redis.sadd(keys.sourceKeys(later), 'SKU-1');
    await redis.sadd(keys.unsoldKeys(later), 'SKU-2');
    await runs.finish(later);
    expect(await redis.smembers(keys.sourceKeys(later))).toEqual(['SKU-1']);
    expect(await redis.smembers(keys.unsoldKeys(later))).toEqual(['SKU-2']);
  });

  it('that approve ended (its last held row settled) keeps what a run that ended keeps', async () => {
    const run = await runs.create(runSpec());
    const held = Array.from({ length: 20 }, (_, i): RowOutcome => {
      const row = i + 1;
      return { row, key: `SKU-${row}`, action: 'update', productId: String(row), status: 'held', error: '' };
    });
    await runs.settle(run.id, held);
    await runs.markProduced(run.id, 20);
    await redis.hset(keys.run(run.id), 'state', 'running', 'approving', 20);
    await redis.hset(keys.products(run.id), '1', '{}');
    const approved = held.map((o): RowOutcome => ({ ...o, action: 'unchanged', status: 'ok' }));
    const rows = new HeldRows(redis, keys);
    expect(await rows.resettle(run.id, approved.slice(0, 10))).toBe(10);
    expect(await redis.exists(keys.products(run.id))).toBe(1);
    expect(await rows.resettle(run.id, approved.slice(10))).toBe(10);
    expect((await runs.get(run.id))?.state).toBe('done');
    expect(await redis.exists(keys.products(run.id))).toBe(0);
    expect(await redis.hlen(keys.outcomes(run.id))).toBe(1);
    expect(await allLines(run.id)).toEqual(approved);
  });
});
