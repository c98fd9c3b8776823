import { UsageError } from '../usage-error.js';

/**
 * Refuses, in one line naming where it came from (`--redis-url` or `REDIS_URL`), a Redis URL that
 * connect.ts could not connect to: not a URL, or not redis:// or rediss://. The URL is never quoted:
 * it may hold a password. Said before the connection, which only knew it as "(invalid REDIS_URL)".
 */
export function checkRedisUrl(url: string, origin: string): void {
  let scheme: string | null = null;
  try {
    scheme = new URL(url).protocol;
  } catch {}
  if (scheme === 'redis:' || scheme === 'rediss:') return;
  throw new UsageError(
    `${origin} is not a valid Redis URL: it must look like redis://host:6379 (rediss:// for TLS)`,
  );
}
