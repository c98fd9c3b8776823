import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/** Every key and value under the prefix, as one text, whatever the Redis type. */
async function dumpPrefix(redis: Redis, prefix: string): Promise<string> {
  const parts: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      parts.push(key);
      const type = await redis.type(key);
      if (type === 'string') parts.push((await redis.get(key)) ?? '');
      else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
      else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
      else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
      else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
      else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
    }
  } while (cursor !== '0');
  return parts.join('\n');
}

describe("the seller's API key", () => {
  const pipeline = usePipeline();

  it('reaches neither Redis, nor the report, nor the output, even at LOG_LEVEL=trace', async () => {
    const rows = [...catalogRows(30), { sku: 'BAD', name: 'Bad', price: 'x' }];
    const source = await pipeline.csv('catalog.csv', rows);
    const report = join(pipeline.dir, 'report.csv');
    // A queued run (jobs in Redis) and a finished one.
    const queued = await pipeline.cli(['import', await pipeline.csv('other.csv', catalogRows(5, 500))], {
      LOG_LEVEL: 'trace',
    });
    const run = await pipeline.cli(['run', source, '--report', report], { LOG_LEVEL: 'trace' });
    const status = await pipeline.cli(['status', runIdOf(run.stdout), '--json']);

    const stored = await withRedis((redis) => dumpPrefix(redis, pipeline.prefix));

    expect(stored).toContain(runIdOf(queued.stdout));
    expect(stored).toContain('SELLER_API_KEY');
    expect(stored).not.toContain(MAIN_KEY);
    expect(await pipeline.readText('report.csv')).not.toContain(MAIN_KEY);
    for (const output of [queued, run, status]) {
      expect(output.stdout + output.stderr).not.toContain(MAIN_KEY);
    }
    expect(run.stderr).not.toBe('');
  });
});
