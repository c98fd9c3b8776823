import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENTS_KEPT, queueOptions } from '../../../src/queue/queue-options.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const JOBS = 1500;

describe("a seller queue's event stream (issue 12: Redis kept per seller)", () => {
  let prefix: string;
  let redis: Redis;

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  });
  afterEach(async () => {
    await redis.quit();
    await removePrefix(prefix);
  });

  const addJobs = async (queue: Queue) => {
    await queue.waitUntilReady();
    for (let at = 0; at < JOBS; at += 500) {
      await queue.addBulk(Array.from({ length: 500 }, (_, i) => ({ name: 'chunk', data: { n: at + i } })));
    }
    return redis.xlen(`${prefix}:${queue.name}:events`);
  };

  it('keeps about EVENTS_KEPT events however many jobs pass, where BullMQ keeps 10,000', async () => {
    const ours = new Queue('ours', queueOptions(redis, prefix));
    const theirs = new Queue('theirs', { connection: redis, prefix });
    try {
      const kept = await addJobs(ours);
      // XTRIM MAXLEN ~ trims whole stream nodes (100 entries each): a node more may stay.
      expect(kept).toBeLessThanOrEqual(EVENTS_KEPT + 100);
      expect(await redis.hget(`${prefix}:ours:meta`, 'opts.maxLenEvents')).toBe(String(EVENTS_KEPT));
      expect(await addJobs(theirs)).toBeGreaterThanOrEqual(JOBS);
    } finally {
      await ours.close();
      await theirs.close();
    }
  });
});
