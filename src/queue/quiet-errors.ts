import type { Logger } from '../logger.js';
import { isPermissionRefusal } from '../redis/permission-refusal.js';

/** A connection that dropped and is being made again: what a Redis restart looks like from here. */
function isReconnecting(error: Error): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return (
    code === 'ECONNRESET' ||
    code === 'ECONNREFUSED' ||
    code === 'EPIPE' ||
    /Connection is closed|ECONNRESET|ECONNREFUSED/.test(error.message)
  );
}

/**
 * BullMQ emits an 'error' event on every failed reconnect while Redis is away; without a listener it
 * prints raw Error objects to the console. This listener logs one line per outage window instead:
 * at `info` while the connection is being made again (a restart is waited for, and a Redis that
 * stays away ends `run` with its own line) or a job lock is lost, at `warn` for anything else.
 */
export function throttledErrorLog(logger: Logger, what: string, everyMs = 10_000): (error: Error) => void {
  let last = 0;
  return (error) => {
    const now = Date.now();
    if (now - last < everyMs) return;
    last = now;
    // A job lock that could not be renewed was lost with Redis' data or taken as stalled: BullMQ
    // recovers the job, and a run whose state is gone ends with its own line. Its attempt's end is
    // then refused (`Lock mismatch`, `Missing lock`): the chunk was handed out again, or is about to
    // be, and that attempt ends it.
    const lockLost = /could not renew lock|Lock mismatch|Missing lock/.test(error.message);
    // A permission the ACL user lacks ends the command with its own line (health.ts, `denied`).
    const level = isReconnecting(error) || lockLost || isPermissionRefusal(error.message) ? 'info' : 'warn';
    logger[level]({ err: error.message }, `${what}: ${error.message} (retrying)`);
  };
}
