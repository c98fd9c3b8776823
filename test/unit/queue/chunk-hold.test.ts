import { describe, expect, it } from 'vitest';
import { ChunkHold } from '../../../src/queue/chunk-hold.js';
import { ChunkLockLostError } from '../../../src/sync/chunk-lock-lost.js';

const LOCK_MS = 1000;

/** A Redis that answers the hold's read of the lock with `lock`, counting the reads. */
function lockRedis(lock: { holder: string | null; pttl: number }) {
  const redis = {
    reads: 0,
    multi() {
      const chain = {
        get: () => chain,
        pttl: () => chain,
        exec: async () => {
          redis.reads += 1;
          return [
            [null, lock.holder],
            [null, lock.pttl],
          ];
        },
      };
      return chain;
    },
  };
  return redis;
}

function holdOf(redis: ReturnType<typeof lockRedis>, clock: { now: number }) {
  const fence = { lockKey: 'p:q:1:lock', tokens: new Set(['a:1']) };
  return new ChunkHold(redis as never, '1', fence, 0, LOCK_MS, () => clock.now);
}

describe('a chunk attempt’s hold on its job lock', () => {
  it('reads nothing for half a lock from the take, then reads the lock once, sure for half its PTTL', async () => {
    const lock = { holder: 'a:1', pttl: 600 };
    const redis = lockRedis(lock);
    const clock = { now: 0 };
    const hold = holdOf(redis, clock);

    clock.now = 499;
    expect(hold.check()).toBeUndefined();
    clock.now = 500;
    await Promise.all([hold.check(), hold.check()]);
    expect(redis.reads).toBe(1);
    clock.now = 799;
    expect(hold.check()).toBeUndefined();
    clock.now = 800;
    await hold.check();
    expect(redis.reads).toBe(2);
  });

  it('is lost once another attempt holds the lock, or it ran out, and stays lost', async () => {
    for (const lock of [
      { holder: 'b:1', pttl: 900 },
      { holder: null, pttl: -2 },
    ]) {
      const redis = lockRedis(lock);
      const clock = { now: 500 };
      const hold = holdOf(redis, clock);

      await expect(hold.check()).rejects.toBeInstanceOf(ChunkLockLostError);
      expect(() => hold.check()).toThrow(ChunkLockLostError);
      expect(redis.reads).toBe(1);
    }
  });
});
