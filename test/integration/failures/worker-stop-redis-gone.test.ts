import { describe, expect, it } from 'vitest';
import { useOwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';

/**
 * A `worker` stopped (SIGTERM: `docker stop`, systemd) while its Redis is gone: its queues can hand
 * nothing back, and their close, and its look at the seller queues, wait for a Redis that does not
 * come. It stops all the same within the close deadline (1 s at most without Redis; scaled to
 * 500 ms here), exit 0, its last line `worker stopped`.
 */
describe('a worker stopped while its Redis is gone', () => {
  const own = useOwnRedis();
  // Registered after useOwnRedis, so it runs first: the worker stops before its Redis is removed.
  const pipeline = usePipeline();

  it('exits 0 within the close deadline', { timeout: 30_000 }, async () => {
    const worker = pipeline.spawn(['worker'], {
      REDIS_URL: own.redis.url,
      LOG_LEVEL: 'info',
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '500',
    });
    await worker.waitForStderr(/worker started/);
    await own.redis.stop();
    worker.process.kill('SIGTERM');

    // Without the deadline it waits for Redis for ever.
    const bound = new Promise((resolve) => setTimeout(() => resolve('still running'), 8000));
    expect(await Promise.race([worker.exited, bound])).toEqual({ code: 0, signal: null });
    expect(worker.stderr().trim().split('\n').at(-1)).toContain('worker stopped');
  });
});
