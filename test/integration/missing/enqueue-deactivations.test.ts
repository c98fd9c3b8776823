import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { enqueueDeactivations } from '../../../src/missing/deactivations.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const RUN = '20260101T000000-abcdef';

/** Queueing the due deactivations again, as a finaliser or an approve stopped half way does. */
describe('enqueueDeactivations', () => {
  const shared = usePrefixedRedis();

  it('queues them again under job ids never used before: none is dropped as the id of a job still there', async () => {
    const keys = new RedisKeys(shared.prefix);
    const deps = { redis: shared.redis, keys, runs: new RunStore(shared.redis, keys) };
    await shared.redis.hset(keys.run(RUN), 'spec', '{}');
    await shared.redis.hset(keys.deactivations(RUN), { '11': 'SKU-11', '12': 'SKU-12' });
    const queue = new Queue<ChunkJobData>('deactivations-test', {
      connection: shared.redis,
      prefix: shared.prefix,
    });
    try {
      await enqueueDeactivations(deps, RUN, queue);
      const first = await queue.getJobs(['waiting']);
      expect(first).toHaveLength(1);

      // The first job is still there (active, or kept as failed); the products it holds are due.
      await enqueueDeactivations(deps, RUN, queue);
      const all = await queue.getJobs(['waiting']);
      const again = all.filter((job) => job.id !== first[0]?.id);
      expect(again.map((job) => job.data.deactivate?.map((item) => item.id).sort())).toEqual([['11', '12']]);
      // A run whose record is gone gets no more jobs, and no record of one field without a lifetime.
      await shared.redis.del(keys.run(RUN));
      await enqueueDeactivations(deps, RUN, queue);
      expect(await queue.getJobs(['waiting'])).toHaveLength(2);
      expect(await shared.redis.exists(keys.run(RUN))).toBe(0);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
