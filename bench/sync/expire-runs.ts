import type { Redis } from 'ioredis';

/**
 * What RUN_TTL_SECONDS does a week later, without waiting a week: the keys of the runs under
 * `prefix` older than the last `kept` go (the run's record, its data, its entry in the runs set).
 */
export async function expireOldRuns(redis: Redis, prefix: string, kept: number): Promise<void> {
  const old = await redis.zrange(`${prefix}:runs`, 0, -(kept + 1));
  for (const id of old) {
    const keys = await redis.keys(`${prefix}:run:${id}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.zrem(`${prefix}:runs`, id);
  }
}
