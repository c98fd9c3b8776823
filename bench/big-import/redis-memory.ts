import type { Redis } from 'ioredis';

/**
 * What the benchmark's keys hold, by role, from MEMORY USAGE:
 * - `queue`: BullMQ's keys of the seller's queue (waiting list, job hashes, ids, locks), events aside;
 * - `events`: the queue's event stream, which BullMQ trims to about 10,000 entries;
 * - `run`: the run record, outcomes, product index, source keys, missing lines (kept 7 days);
 * - `seller`: the seller's id map and registry (kept for later runs).
 */
export interface PrefixMemory {
  queue: number;
  events: number;
  run: number;
  seller: number;
}

/** Exact MEMORY USAGE of the run's own keys, by what follows the run id (`record` for the run hash). */
export async function runKeyMemory(redis: Redis, prefix: string): Promise<Record<string, number>> {
  const bytes: Record<string, number> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:run:*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const part = key.slice(`${prefix}:run:`.length).split(':')[1] ?? 'record';
      bytes[part] = (bytes[part] ?? 0) + Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    }
  } while (cursor !== '0');
  return bytes;
}

export const prefixTotal = (m: PrefixMemory) => m.queue + m.events + m.run + m.seller;

/** `used_memory` of INFO memory: the whole server, other users of the Redis included. */
export async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? 0);
}

/**
 * Sums MEMORY USAGE of every key under `prefix`. `exact` counts every element of large hashes
 * (slow: for the final figures); otherwise Redis estimates them from a few samples.
 */
export async function prefixMemory(redis: Redis, prefix: string, exact = false): Promise<PrefixMemory> {
  const memory: PrefixMemory = { queue: 0, events: 0, run: 0, seller: 0 };
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length === 0) continue;
    const pipeline = redis.pipeline();
    for (const key of keys) {
      if (exact) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
      else pipeline.call('MEMORY', 'USAGE', key);
    }
    const results = (await pipeline.exec()) ?? [];
    keys.forEach((key, i) => {
      const bytes = Number(results[i]?.[1] ?? 0);
      memory[roleOf(key.slice(prefix.length + 1))] += bytes;
    });
  } while (cursor !== '0');
  return memory;
}

function roleOf(key: string): keyof PrefixMemory {
  if (key.startsWith('sync-')) return key.endsWith(':events') ? 'events' : 'queue';
  if (key === 'runs' || key.startsWith('run:')) return 'run';
  return 'seller';
}
