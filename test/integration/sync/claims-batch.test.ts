import { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { ScriptBatch } from '../../../src/redis/script-batch.js';
import { luaScript } from '../../../src/redis/scripts.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { CreateClaims } from '../../../src/sync/create-claims.js';
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

describe('a batch of scripts', () => {
  const test = usePrefixedRedis();

  it('gives each call its own answer or error, as if sent alone', async () => {
    const incrby = luaScript('testIncrBy', 1, "return redis.call('INCRBY', KEYS[1], ARGV[1])");
    const batch = new ScriptBatch(test.redis);
    const counter = `${test.prefix}:counter`;
    const settled = await Promise.allSettled([
      batch.run(incrby, counter, 2),
      batch.run(incrby, counter, 'not-a-number'),
      batch.run(incrby, counter, 3),
    ]);
    expect(settled[0]).toEqual({ status: 'fulfilled', value: 2 });
    expect(settled[1]?.status).toBe('rejected');
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/not an integer/);
    expect(settled[2]).toEqual({ status: 'fulfilled', value: 5 });
  });

  it('rejects every call when the connection fails, and leaves none waiting', async () => {
    const broken = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      lazyConnect: true,
    });
    broken.on('error', () => undefined);
    const noop = luaScript('testNoop', 0, 'return 1');
    const batch = new ScriptBatch(broken);
    const settled = await Promise.allSettled([batch.run(noop), batch.run(noop)]);
    expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    broken.disconnect();
  });
});
