import type { Redis } from 'ioredis';
import { QUOTA_COUNTER_TTL_SECONDS } from '../defaults.js';

/** How long answers wait in memory at most before they are reported on their own. */
export const ANSWERS_REPORT_MS = 100;

/**
 * The requests of a limit window this process took against a known limit and saw answered (or
 * fail), not yet reported to the window's answered count (RedisKeys.requestsAnswered): past the
 * limit, a request goes only once that count is the window's (request-quota-scripts.ts). They go
 * with the reservations and give-backs there are anyway, else within ANSWERS_REPORT_MS (a process
 * that sends no more must not keep the others waiting): a few commands a second at most, and none
 * for a seller with no limit known (nothing is noted).
 */
export class WindowAnswers {
  private readonly pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly redis: Redis) {}

  /** `count` more answered requests of the window whose answered count is `key`. */
  note(key: string, count = 1): void {
    if (count <= 0) return;
    this.pending.set(key, (this.pending.get(key) ?? 0) + count);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.report().catch(() => undefined);
    }, ANSWERS_REPORT_MS).unref();
  }

  /** The window's count not yet reported, now in the caller's hands (it reports it). */
  take(key: string | undefined): number {
    if (!key) return 0;
    const count = this.pending.get(key) ?? 0;
    this.pending.delete(key);
    return count;
  }

  /** Reports every window's count now (the timer, the process closing). */
  async report(): Promise<void> {
    const counts = [...this.pending];
    this.pending.clear();
    await Promise.all(
      counts.map(async ([key, count]) => {
        try {
          await this.redis.multi().incrby(key, count).expire(key, QUOTA_COUNTER_TTL_SECONDS).exec();
        } catch (error) {
          this.note(key, count);
          throw error;
        }
      }),
    );
  }
}
