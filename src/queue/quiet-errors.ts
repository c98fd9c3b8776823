import type { Logger } from '../logger.js';

/**
 * BullMQ emits an 'error' event on every failed reconnect while Redis is away; without a listener it
 * prints raw Error objects to the console. This listener logs one warning per outage window instead.
 */
export function throttledErrorLog(logger: Logger, what: string, everyMs = 10_000): (error: Error) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    logger.warn({ err: error.message }, `${what}: ${error.message} (retrying)`);
  };
}
