import type { Redis } from 'ioredis';
import { displayRedisUrl } from './connect.js';

/** Redis stopped answering for longer than a restart takes: the run cannot go on safely. */
export class RedisLostError extends Error {
  override name = 'RedisLostError';
  constructor(url: string, seconds: number) {
    super(
      `Redis at ${displayRedisUrl(url)} has not answered for ${seconds} s; stopping. ` +
        'Nothing is lost: queued rows and settled outcomes stay in Redis, and the run goes on with any worker once it is back.',
    );
  }
}

/**
 * Resolves with the command's result, or rejects with RedisLostError when Redis has not answered
 * within `ms`. A Redis restarted mid-run (with AOF) answers again within that time and the run goes on.
 */
export function withinRedisDeadline<T>(url: string, command: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisLostError(url, Math.round(ms / 1000))), ms);
  });
  command.catch(() => undefined);
  return Promise.race([command, deadline]).finally(() => clearTimeout(timer));
}

/** Closes politely when Redis answers, at once when it does not. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    await redis.quit().catch(() => redis.disconnect());
  } else {
    redis.disconnect();
  }
}
