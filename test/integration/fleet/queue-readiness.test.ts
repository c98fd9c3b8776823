import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasWorkNow, readQueueReadiness } from '../../../src/queue/queue-readiness.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

describe('a seller queue read without a worker on it', () => {
  let prefix: string;
  let redis: Redis;
  let queue: Queue;

  beforeEach(async () => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue('sync-readiness', { connection: redis, prefix });
  });

  afterEach(async () => {
    await queue.close();
    await redis.quit();
    await removePrefix(prefix);
  });

  const read = (now = Date.now()) => readQueueReadiness(redis, prefix, 'sync-readiness', now);

  it('has no work when empty, and work once a job waits', async () => {
    const now = Date.now();
    const empty = await read(now);
    expect(empty).toEqual({ waiting: 0, nextDelayedAt: null, stalled: 0, paused: false, limitedUntil: null });
    expect(hasWorkNow(empty, now)).toBe(false);

    await queue.add('chunk', { n: 1 });
    await queue.add('chunk', { n: 2 }, { priority: 3 });
    const two = await read(now);
    expect(two.waiting).toBe(2);
    expect(hasWorkNow(two, now)).toBe(true);
  });

  it('has work from the time a delayed job is due, not before', async () => {
    const before = Date.now();
    await queue.add('chunk', { n: 1 }, { delay: 60_000 });
    const delayed = await read(before);
    expect(delayed.waiting).toBe(0);
    expect(delayed.nextDelayedAt).toBeGreaterThanOrEqual(before + 60_000);
    expect(delayed.nextDelayedAt).toBeLessThan(before + 70_000);
    expect(hasWorkNow(delayed, before)).toBe(false);
    expect(hasWorkNow(delayed, (delayed.nextDelayedAt as number) + 1)).toBe(true);
  });

  it('has no work while the seller is paused (a rejected key) or rate limited (a daily limit)', async () => {
    await queue.add('chunk', { n: 1 });
    await queue.pause();
    const paused = await read();
    expect(paused.paused).toBe(true);
    expect(hasWorkNow(paused, Date.now())).toBe(false);

    await queue.resume();
    await queue.rateLimit(120_000);
    const now = Date.now();
    const limited = await read(now);
    expect(limited.limitedUntil).toBeGreaterThan(now + 100_000);
    expect(hasWorkNow(limited, now)).toBe(false);
    expect(hasWorkNow(limited, (limited.limitedUntil as number) + 1)).toBe(true);
  });

  it('has work when an active job lost its lock (a killed worker), not while the lock holds', async () => {
    const base = `${prefix}:sync-readiness:`;
    await redis.lpush(`${base}active`, 'held', 'lost');
    await redis.set(`${base}held:lock`, 'token', 'PX', 30_000);
    const now = Date.now();
    const stalled = await read(now);
    expect(stalled.stalled).toBe(1);
    expect(hasWorkNow(stalled, now)).toBe(true);

    await redis.set(`${base}lost:lock`, 'token', 'PX', 30_000);
    expect(hasWorkNow(await read(now), now)).toBe(false);
  });
});
