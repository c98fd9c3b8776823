import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { EVENTS_KEPT } from '../../../src/defaults.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const JOBS = 1500;

describe("a seller queue's event stream (issue 12: Redis kept per seller)", () => {
  const test = usePrefixedRedis();

  const addJobs = async (queue: Queue) => {
    await queue.waitUntilReady();
    for (let at = 0; at < JOBS; at += 500) {
      await queue.addBulk(Array.from({ length: 500 }, (_, i) => ({ name: 'chunk', data: { n: at + i } })));
    }
    return test.redis.xlen(`${test.prefix}:${queue.name}:events`);
  };

  it('keeps about EVENTS_KEPT events however many jobs pass, where BullMQ keeps 10,000', async () => {
    const ours = new Queue('ours', queueOptions(test.redis, test.prefix));
    const theirs = new Queue('theirs', { connection: test.redis, prefix: test.prefix });
    try {
      const kept = await addJobs(ours);
      // XTRIM MAXLEN ~ trims whole stream nodes (100 entries each): a node more may stay.
      expect(kept).toBeLessThanOrEqual(EVENTS_KEPT + 100);
      expect(await test.redis.hget(`${test.prefix}:ours:meta`, 'opts.maxLenEvents')).toBe(
        String(EVENTS_KEPT),
      );
      expect(await addJobs(theirs)).toBeGreaterThanOrEqual(JOBS);
    } finally {
      await ours.close();
      await theirs.close();
    }
  });
});
