import type { Queue } from 'bullmq';
import type { RunContext, WorkerDeps } from '../chunks/run-context.js';
import { UNTIMED_PAUSE_MS } from '../defaults.js';
import { tellPauseToWaitingRuns } from '../notify/pause-notice.js';
import { formatDuration } from '../runs/summary.js';
import { pauseOf } from '../sync/error-policy.js';
import { ApiUnreachableError, NoApiAtBaseUrlError } from '../sync/seller-pause.js';
import { outOfReachCause } from '../sync/unreached.js';

/**
 * One `GET /ping` for a seller whose API was out of reach, before a chunk sends anything: rejects
 * with the pause again (its wait doubles) when it still does not reach the API; otherwise the seller
 * is served again, said in one log line. Any answer (even a 500 or a 401) but a 404 of the ping
 * itself (no API under the base URL) means the API is reached:
 * what the answer means, the chunk's own requests meet as usual.
 */
export async function probeReach(deps: WorkerDeps, context: RunContext): Promise<void> {
  const { sellerRef: ref, baseUrl } = context.run;
  try {
    await context.client.probe();
  } catch (error) {
    // Its one try: a server that closes every connection unanswered is as out of reach as a refusal.
    const failure = outOfReachCause([error], baseUrl);
    if (failure !== null) throw new ApiUnreachableError(baseUrl, failure, deps.now() + UNTIMED_PAUSE_MS);
    // Reached, but no API there still (a 404 of /ping): paused again, its wait doubling.
    const pause = pauseOf(error);
    if (pause instanceof NoApiAtBaseUrlError) throw pause;
  }
  if (await deps.sellers.clearUnreachable(ref)) {
    deps.logger.info({ seller: ref }, `${baseUrl} answers again: seller ${ref} resumed`);
  }
}

/**
 * No request reached the API: nothing is sent to the seller until the next probe, on every
 * machine (the record is in Redis), and the chunk goes back to waiting. One log line per wait.
 */
export async function pauseUnreachable(
  deps: WorkerDeps,
  queue: Queue,
  ref: string,
  pause: ApiUnreachableError,
  runId: string,
): Promise<void> {
  const { record, fresh } = await deps.sellers.markUnreachable(ref, pause);
  const wait = Math.max(1, record.retryAt - deps.now());
  if (fresh) {
    deps.logger.warn(
      { seller: ref, retryAt: new Date(record.retryAt).toISOString() },
      `${pause.message}: seller ${ref} paused, the API is probed again in ${formatDuration(wait)}`,
    );
  }
  await queue.rateLimit(wait);
  // Once per run (the notifier's claim): a webhook told at every probe would be noise. Every run of
  // the seller waits on it, not only this one.
  if (fresh) {
    const unreachable = { cause: pause.failure, noApi: pause instanceof NoApiAtBaseUrlError };
    await tellPauseToWaitingRuns(deps, ref, { event: 'api-unreachable', unreachable }, runId);
  }
}
