import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { RunStateLostError } from '../../../src/redis/health.js';
import { TurnBatch } from '../../../src/redis/turn-batch.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { CreateClaims } from '../../../src/sync/create-claims.js';
import { idMapKeyOf } from '../../../src/sync/id-map-buckets.js';
import { encodeKnown } from '../../../src/sync/id-map-entry.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const REF = 'batching-seller';

/** Counts the writes on the client's socket: one per command sent alone, one per pipeline. */
async function countWrites(redis: Redis): Promise<() => number> {
  await redis.ping();
  const socket = (redis as unknown as { stream: { write: (...args: unknown[]) => boolean } }).stream;
  const original = socket.write.bind(socket);
  let writes = 0;
  socket.write = (...args: unknown[]) => {
    writes++;
    return original(...args);
  };
  return () => writes;
}

/** Starts every call in one turn of the event loop, each after an await, as a chunk's rows do. */
function inOneTurn<T>(count: number, call: (i: number) => Promise<T>): Promise<Awaited<T>[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      await Promise.resolve();
      return call(i);
    }),
  );
}

describe('claims asked for in one turn (a chunk starting its rows)', () => {
  const test = usePrefixedRedis();
  let keys: RedisKeys;
  let redis: Redis;

  beforeEach(() => {
    keys = new RedisKeys(test.prefix);
    redis = test.redis;
  });

  it('go to Redis in one write, and each row gets its own claim', async () => {
    const claims = new CreateClaims(redis, keys, REF);
    await claims.claim('warm-up', 'run-0'); // the id map's one-time check, and the script's first load
    const writes = await countWrites(redis);
    const results = await inOneTurn(100, (i) => claims.claim(`sku-${i}`, 'run-1'));
    expect(writes()).toBe(1);
    expect(results.every((claim) => claim.kind === 'claimed')).toBe(true);
    const held = await redis.hgetall(keys.pendingCreates(REF));
    expect(Object.keys(held)).toHaveLength(101);
    expect(held['sku-42']?.startsWith('run-1|')).toBe(true);
  });

  it('are applied in the order asked: the second claim of one key finds the first holding it', async () => {
    const claims = new CreateClaims(redis, keys, REF);
    const [first, second] = await inOneTurn(2, (i) => claims.claim('same-sku', `run-${i + 1}`));
    expect(first).toMatchObject({ kind: 'claimed' });
    expect(second).toEqual({ kind: 'held', by: 'run-1' });
  });

  it('are released together, each only by its holder', async () => {
    const claims = new CreateClaims(redis, keys, REF);
    const tokens = await inOneTurn(3, async (i) => {
      const claim = await claims.claim(`sku-${i}`, 'run-1');
      if (claim.kind !== 'claimed') throw new Error(`sku-${i} was not claimed`);
      return claim.token;
    });
    const writes = await countWrites(redis);
    const renewedByOther = await inOneTurn(
      3,
      (i): Promise<unknown> =>
        i === 2
          ? claims.renew('sku-0', 'run-9|not-the-token|')
          : claims.release(`sku-${i}`, tokens[i] as string),
    );
    expect(writes()).toBe(1);
    expect(renewedByOther[2]).toBe(false);
    expect(await redis.hkeys(keys.pendingCreates(REF))).toEqual(['sku-2']);
  });
});

describe('claims applied together keep every claim exact', () => {
  const test = usePrefixedRedis();
  let keys: RedisKeys;
  let redis: Redis;
  let clock: number;

  beforeEach(() => {
    keys = new RedisKeys(test.prefix);
    redis = test.redis;
    clock = 1_000_000;
  });

  const claimsOf = (runKeyOf: ((runId: string) => string) | null = null) =>
    new CreateClaims(redis, keys, REF, () => clock, 30_000, runKeyOf);

  it('hand a stale claim to the one claim that passed its value, not to a second one in the batch', async () => {
    const claims = claimsOf();
    const first = await claims.claim('sku-stale', 'run-dead');
    if (first.kind !== 'claimed') throw new Error('not claimed');
    clock += 60_000; // its holder stopped renewing it
    const [seen] = await inOneTurn(1, () => claims.claim('sku-stale', 'run-1'));
    if (seen?.kind !== 'stale') throw new Error(`expected stale, got ${seen?.kind}`);
    const results = await inOneTurn(3, (i) =>
      claims.claim('sku-stale', `run-${i + 1}`, i === 2 ? 'run-dead|other|1' : seen.value),
    );
    expect(results[0]).toMatchObject({ kind: 'claimed' });
    // The second passed the same stale value, but finds the first's live claim in its place.
    expect(results[1]).toEqual({ kind: 'held', by: 'run-1' });
    expect(results[2]).toEqual({ kind: 'held', by: 'run-1' });
    const held = await redis.hget(keys.pendingCreates(REF), 'sku-stale');
    expect(held?.startsWith(`run-1|`)).toBe(true);
  });

  it('answer a stale claim as stale to a claim that did not pass its value', async () => {
    const claims = claimsOf();
    await claims.claim('sku-old', 'run-dead');
    clock += 60_000;
    const results = await inOneTurn(2, (i) => claims.claim(i === 0 ? 'sku-old' : 'sku-new', 'run-1'));
    expect(results[0]).toMatchObject({ kind: 'stale' });
    expect(results[1]).toMatchObject({ kind: 'claimed' });
    expect((await redis.hget(keys.pendingCreates(REF), 'sku-old'))?.startsWith('run-dead|')).toBe(true);
  });

  it('refuse the claims of a run whose record is gone, and only those', async () => {
    const runKey = (runId: string) => `${test.prefix}:test-run:${runId}`;
    await redis.hset(runKey('run-live'), 'spec', '{}');
    const claims = claimsOf(runKey);
    const results = await Promise.allSettled(
      ['run-live', 'run-lost', 'run-live', 'run-lost'].map(async (runId, i) => {
        await Promise.resolve();
        return claims.claim(`sku-${i}`, runId);
      }),
    );
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { kind: 'claimed' } });
    expect(results[2]).toMatchObject({ status: 'fulfilled', value: { kind: 'claimed' } });
    for (const lost of [results[1], results[3]]) {
      expect(lost?.status).toBe('rejected');
      expect((lost as PromiseRejectedResult).reason).toBeInstanceOf(RunStateLostError);
    }
    expect((await redis.hkeys(keys.pendingCreates(REF))).sort()).toEqual(['sku-0', 'sku-2']);
  });

  it('answer a key created meanwhile as known, and claim it not', async () => {
    const product = { id: '42', sent: { sku: 'sku-known' } };
    await redis.hset(idMapKeyOf(keys, REF, 'sku-known'), 'sku-known', encodeKnown('sku-known', product));
    const claims = claimsOf();
    const results = await inOneTurn(2, (i) => claims.claim(i === 0 ? 'sku-known' : 'sku-free', 'run-1'));
    expect(results[0]).toEqual({ kind: 'known', product });
    expect(results[1]).toMatchObject({ kind: 'claimed' });
    expect(await redis.hkeys(keys.pendingCreates(REF))).toEqual(['sku-free']);
  });

  it('claim a key whose entry names the product being replaced (404 on PUT), not one naming another', async () => {
    for (const [key, id] of [
      ['sku-gone', '42'],
      ['sku-other', '421'],
    ] as const) {
      await redis.hset(idMapKeyOf(keys, REF, key), key, encodeKnown(key, { id, sent: { sku: key } }));
    }
    const claims = claimsOf();
    const results = await inOneTurn(2, (i) =>
      claims.claim(i === 0 ? 'sku-gone' : 'sku-other', 'run-1', '', '42'),
    );
    expect(results[0]).toMatchObject({ kind: 'claimed' });
    expect(results[1]).toEqual({ kind: 'known', product: { id: '421', sent: { sku: 'sku-other' } } });
    expect(await redis.hkeys(keys.pendingCreates(REF))).toEqual(['sku-gone']);
  });

  it('apply a release before a claim of the same key asked after it in the turn', async () => {
    const claims = claimsOf();
    const first = await claims.claim('sku-r', 'run-1');
    if (first.kind !== 'claimed') throw new Error('not claimed');
    const [, second, renewed] = await inOneTurn(
      3,
      (i): Promise<unknown> =>
        i === 0
          ? claims.release('sku-r', first.token)
          : i === 1
            ? claims.claim('sku-r', 'run-2')
            : claims.renew('sku-r', first.token),
    );
    expect(second).toMatchObject({ kind: 'claimed' });
    // The released holder's renew, asked after the other's claim, finds the claim no longer its own.
    expect(renewed).toBe(false);
    expect((await redis.hget(keys.pendingCreates(REF), 'sku-r'))?.startsWith('run-2|')).toBe(true);
  });

  it('take more keys in one turn than one Lua call can pass at once', { timeout: 30_000 }, async () => {
    const claims = claimsOf();
    const count = 10_000;
    const results = await inOneTurn(count, (i) => claims.claim(`sku-${i}`, 'run-1'));
    expect(results.every((claim) => claim.kind === 'claimed')).toBe(true);
    expect(await redis.hlen(keys.pendingCreates(REF))).toBe(count);
    await inOneTurn(count, (i) => {
      const claim = results[i];
      return claim?.kind === 'claimed' ? claims.release(`sku-${i}`, claim.token) : Promise.resolve();
    });
    expect(await redis.hlen(keys.pendingCreates(REF))).toBe(0);
  });
});

describe('a turn batch', () => {
  it('hands over the items of one turn together, in order, and answers each its own', async () => {
    const sent: number[][] = [];
    const batch = new TurnBatch(async (items: number[]) => {
      sent.push(items);
      return items.map((item) => item * 10);
    });
    const answers = await inOneTurn(3, (i) => batch.add(i));
    expect(answers).toEqual([0, 10, 20]);
    expect(sent).toEqual([[0, 1, 2]]);
    expect(await batch.add(7)).toBe(70);
    expect(sent).toHaveLength(2);
  });

  it('rejects every item when the send fails, however it fails, and leaves none waiting', async () => {
    const cases: [(items: number[]) => Promise<number[]>, string[]][] = [
      [async () => Promise.reject(new Error('down')), ['rejected', 'rejected']],
      [
        () => {
          throw new Error('down');
        },
        ['rejected', 'rejected'],
      ],
      // Fewer answers than items: the item without one is not left waiting.
      [async () => [1], ['fulfilled', 'rejected']],
    ];
    for (const [send, statuses] of cases) {
      const batch = new TurnBatch(send);
      const settled = await Promise.allSettled([batch.add(1), batch.add(2)]);
      expect(settled.map((result) => result.status)).toEqual(statuses);
    }
  });
});
