import { CLOSE_DEADLINE_WITHOUT_REDIS_MS } from '../defaults.js';
import type { Runtime } from './runtime.js';

/**
 * How long a command's workers may take to close as it ends (CATALOG_SYNC_CLOSE_DEADLINE_MS): their
 * chunks under way finish, or are handed back. With Redis gone, BullMQ can hand nothing back (the
 * chunks' locks run out and another worker takes them), so the wait is short.
 */
export function closeDeadlineMs(runtime: Pick<Runtime, 'redis' | 'config'>): number {
  const deadline = runtime.config.closeDeadlineMs;
  return runtime.redis.status === 'ready' ? deadline : Math.min(deadline, CLOSE_DEADLINE_WITHOUT_REDIS_MS);
}

/**
 * Waits for `closing` (workers closing, a queue removed) until the close deadline, read now: a close
 * that cannot finish (a chunk whose request gets no answer, Redis gone) never keeps a cron job, or a
 * container's stop, waiting. `givenUp`, once aborted (`run` interrupted while it closes), ends the
 * wait at once, as the deadline would. A failure of `closing` before then is the caller's.
 */
export async function closeWithinDeadline(
  runtime: Pick<Runtime, 'redis' | 'config'>,
  closing: Promise<unknown>,
  givenUp?: AbortSignal,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let giveUp = () => {};
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, closeDeadlineMs(runtime));
    giveUp = () => resolve();
    if (givenUp?.aborted) resolve();
    givenUp?.addEventListener('abort', giveUp, { once: true });
  });
  try {
    await Promise.race([closing, deadline]);
  } finally {
    clearTimeout(timer);
    givenUp?.removeEventListener('abort', giveUp);
  }
}
