import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { PlanStore } from '../../../src/plan/plan-store.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { addChunk } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { sellerQueueName } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

describe('a held run and chunks that come back', () => {
  const pipeline = usePipeline();

  it('a chunk of a held run tried again (plan or apply) sends nothing; approve still sends each row once', async () => {
    const rows = catalogRows(5);
    await pipeline.cli(['run', await pipeline.csv('a.csv', rows)]);
    const renamed = rows.map((row) => ({ ...row, name: `${row.name} v2` }));
    const held = await pipeline.cli(['run', await pipeline.csv('b.csv', renamed), '--max-updates', '1']);
    expect(held.code).toBe(5);
    const runId = runIdOf(held.stdout);
    const { sellerRef } = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);

    // What a worker killed mid-run, or BullMQ trying a job again, would hand out for this run.
    await withRedis(async (redis) => {
      const upserts = [];
      for await (const write of new PlanStore(redis, new RedisKeys(pipeline.prefix)).inOrder(runId, 5))
        upserts.push(write.upsert);
      expect(upserts).toHaveLength(5);
      const queue = new Queue<ChunkJobData>(sellerQueueName(sellerRef), {
        connection: redis,
        prefix: pipeline.prefix,
      });
      await addChunk(queue, { runId, chunk: 0, rows: upserts });
      await addChunk(queue, { runId, chunk: 7, rows: upserts, phase: 'apply' });
      await queue.close();
    });
    pipeline.sandbox.resetStats();
    const worker = pipeline.spawn(['worker']);
    await expect
      .poll(
        async () => {
          const counts = await withRedis((redis) =>
            new Queue(sellerQueueName(sellerRef), {
              connection: redis,
              prefix: pipeline.prefix,
            }).getJobCounts('wait', 'active'),
          );
          return (counts.wait ?? 0) + (counts.active ?? 0);
        },
        { timeout: 20_000 },
      )
      .toBe(0);
    worker.process.kill('SIGTERM');
    await worker.exited;

    expect(pipeline.sandbox.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout).state).toBe('held');

    expect((await pipeline.cli(['approve', runId])).code).toBe(0);
    expect(pipeline.sandbox.requests().filter((r) => r.method === 'PUT')).toHaveLength(5);
  });
});
