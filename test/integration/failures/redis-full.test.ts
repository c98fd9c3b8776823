import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { freePort, OwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';
import { expectOneLine, usedMemory } from './support/redis-watch.js';

/**
 * Issue 18: a Redis with a small maxmemory and `noeviction`, filled by a real run. Each test starts a
 * redis-server of its own (no persistence, so its memory is what the run put there), never touching
 * the shared one's configuration.
 */
describe('a Redis with a maxmemory (noeviction) that a run fills', () => {
  const pipeline = usePipeline({ latencyMs: 2 });
  let redis: OwnRedis;
  let admin: Redis;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-full-redis-'));
    redis = new OwnRedis(await freePort(), dir, { persistence: false });
    await redis.start();
    admin = redis.client();
  });
  afterEach(async () => {
    await admin.quit();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  // Warnings would show (a chunk tried again, BullMQ's errors): the one line must be all there is.
  const env = () => ({ REDIS_URL: redis.url, LOG_LEVEL: 'warn', CATALOG_SYNC_LOCK_MS: '2000' });

  it('refuses a run that cannot fit before its first request, with the figures (run and import)', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(2000));
    await admin.config('SET', 'maxmemory', String((await usedMemory(admin)) + 300 * 1024));

    for (const command of ['run', 'import']) {
      const result = await pipeline.cli([command, source], env());

      expect(result.code, command).toBe(2);
      expectOneLine(
        result.stderr,
        /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ has about [\d.]+ KiB left \(used [\d.]+ [KM]iB of maxmemory [\d.]+ [KM]iB\); this run needs about [\d.]+ MiB for [\d,]+ rows \(estimated from the source's size: [\d,]+ bytes at \d+ a line; 722 bytes a row kept, 290 more while queued\): raise maxmemory or free space, or pass --force to try anyway$/,
      );
      const rows = Number(/for ([\d,]+) rows/.exec(result.stderr)?.[1]?.replaceAll(',', ''));
      expect(rows).toBeGreaterThan(1800);
      expect(rows).toBeLessThan(2200);
    }
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
