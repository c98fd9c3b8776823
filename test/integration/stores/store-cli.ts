import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { parseCsv } from '../support/catalog.js';
import type { CliResult } from '../support/cli.js';
import { runCli } from '../support/cli.js';
import { type Pipeline, requestCounts } from '../support/pipeline.js';

/** The waits a store source asked for, in ms, in order: none is slept (the seam returns at once). */
export interface Waits {
  asked: number[];
}

/**
 * `catalog-sync run <store> --report …` in this process, with the store's credentials in `extraEnv`
 * and a sleep that only records: throttling, Retry-After and polling cost no time.
 */
export async function runStore(
  pipeline: Pipeline,
  source: string,
  args: string[],
  extraEnv: NodeJS.ProcessEnv,
  waits: Waits = { asked: [] },
) {
  pipeline.sandbox.resetStats();
  const name = `report-${waits.asked.length}-${Date.now()}-${Math.random().toString(36).slice(2)}.csv`;
  const result: CliResult = await runCli(
    ['run', source, '--report', join(pipeline.dir, name), ...args],
    { ...pipeline.env, ...extraEnv },
    '',
    {
      storeSeams: {
        sleep: async (ms) => {
          waits.asked.push(ms);
        },
      },
    },
  );
  const stats = pipeline.sandbox.stats();
  let report: Array<Record<string, string>> = [];
  if (result.code === 0) report = parseCsv(await pipeline.readText(name));
  return { result, stats, writes: requestCounts(stats), report };
}

/** Every key and value under the prefix, as one text (strings, hashes, lists, sets, sorted sets, streams). */
export async function dumpPrefix(redis: Redis, prefix: string): Promise<string> {
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
