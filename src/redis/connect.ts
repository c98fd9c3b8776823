import { Redis } from 'ioredis';

/** Redis could not be reached: a configuration problem for the user, said in one line (exit 2). */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Redis is not reachable at ${displayRedisUrl(url)} (${reason}). ` +
        'Start one with `docker compose up -d redis` or the `redis-server` package, or set REDIS_URL.',
    );
  }
}

/** The URL without its password, for messages and logs. */
export function displayRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid REDIS_URL)';
  }
}

export interface ConnectOptions {
  /** How long the first connection may take before we say Redis is unreachable. */
  connectTimeoutMs?: number;
  connectionName?: string;
}

/**
 * Connects and proves the connection with a PING, failing fast with one line when nothing answers.
 * Once connected, the client reconnects on its own: a Redis restarted mid-run (with AOF) is waited for.
 * `maxRetriesPerRequest: null` is what BullMQ requires of connections its workers use.
 */
export async function connectRedis(url: string, options: ConnectOptions = {}): Promise<Redis> {
  let parsedOk = true;
  try {
    new URL(url);
  } catch {
    parsedOk = false;
  }
  if (!parsedOk || !/^rediss?:$/.test(new URL(url).protocol)) {
    throw new RedisUnavailableError(url, new Error('REDIS_URL must look like redis://host:6379'));
  }
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: options.connectTimeoutMs ?? 3000,
    connectionName: options.connectionName ?? 'catalog-sync',
    retryStrategy: () => null,
  });
  // Errors surface through the commands that fail; an 'error' event without a listener would crash.
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new RedisUnavailableError(url, error);
  }
  redis.options.retryStrategy = (attempt: number) => Math.min(attempt * 250, 2000);
  return redis;
}
