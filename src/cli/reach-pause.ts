import { bullmq } from '../cjs-packages.js';
import { REACH_PROBE_TIMEOUT_MS } from '../defaults.js';
import { queueOptions } from '../queue/queue-options.js';
import { NetworkError, SellerApiClient } from '../seller-api/index.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import type { ReservedRequest } from '../sellers/seller-state.js';
import { pauseOf } from '../sync/error-policy.js';
import { ApiUnreachableError, NoApiAtBaseUrlError, SellerPausedError } from '../sync/seller-pause.js';
import { outOfReachCause } from '../sync/unreached.js';
import type { Runtime } from './runtime.js';

export type ReachPauseResult =
  | { kind: 'not-paused' }
  | { kind: 'resumed' }
  | { kind: 'still-unreachable'; failure: string };

/**
 * Lifts a seller's pause for an API out of reach as soon as one `GET /ping` gets an answer (any
 * answer: what it means, the run meets as usual), rather than waiting for the workers' next probe:
 * what `run` does first, so that the next cron run goes on at once once the API is back.
 */
export async function liftReachPause(
  runtime: Runtime,
  seller: SellerInfo,
  apiKey: string | undefined,
  options: { allowInsecure: boolean; dailyReset: string; dailyBudget: number | null },
): Promise<ReachPauseResult> {
  const status = await runtime.sellers.status(seller.ref, options.dailyReset);
  if (!status.unreachable) return { kind: 'not-paused' };
  // Without the key nothing can be probed: the workers' own probe decides.
  if (!apiKey) return { kind: 'not-paused' };
  // Nor when the day is spent (a 429's pause, or this run's budget used up): the ping would be one
  // request past it; the workers probe once the day lets them send.
  const spent = status.requestsToday + (status.requestsReserved ?? 0);
  if (status.pausedUntil !== null || (options.dailyBudget !== null && spent >= options.dailyBudget))
    return { kind: 'not-paused' };
  const client = new SellerApiClient({
    baseUrl: seller.baseUrl,
    apiKey,
    allowInsecure: options.allowInsecure,
    timeoutMs: REACH_PROBE_TIMEOUT_MS,
  });
  let reserved: ReservedRequest;
  try {
    reserved = await runtime.sellers.reserveRequest(seller.ref, options.dailyReset, null);
  } catch (error) {
    // Paused meanwhile (another process met the 429): the workers probe once it is over.
    if (error instanceof SellerPausedError) return { kind: 'not-paused' };
    throw error;
  }
  try {
    await countedPing(runtime, seller.ref, reserved, client);
  } catch (error) {
    const failure = outOfReachCause([error], seller.baseUrl);
    if (failure !== null) {
      // What fails now (another cause than the recorded one, once the user changed something) is
      // what this run's exit-6 line, `status` and the dashboard say.
      await runtime.sellers.markUnreachable(
        seller.ref,
        new ApiUnreachableError(seller.baseUrl, failure, Date.now()),
      );
      return { kind: 'still-unreachable', failure };
    }
    // An answer, but no API under the base URL (a 404 of /ping): the pause stands, its cause now.
    const noApi = pauseOf(error);
    if (noApi instanceof NoApiAtBaseUrlError) {
      await runtime.sellers.markUnreachable(seller.ref, noApi);
      return { kind: 'still-unreachable', failure: noApi.failure };
    }
  }
  await runtime.sellers.clearUnreachable(seller.ref);
  // The queue waited for the next probe (BullMQ's manual rate limit): no need to any more.
  const queue = new (bullmq().Queue)(seller.queueName, queueOptions(runtime.redis, runtime.config.prefix));
  queue.on('error', () => undefined);
  try {
    await queue.removeRateLimitKey();
  } finally {
    await queue.close();
  }
  return { kind: 'resumed' };
}

/**
 * The ping, counted in the seller's day as a run's requests are (docs/operations.md: a try that may
 * have reached the API counts): reserved before it goes, given back when its connection was never
 * made. No run exists yet, so it is none of a run's `requests`. The block's unused numbers go back
 * at once: the plan and `status` read the day's count exact.
 */
async function countedPing(
  runtime: Runtime,
  ref: string,
  reserved: ReservedRequest,
  client: SellerApiClient,
): Promise<void> {
  try {
    await client.probe();
  } catch (error) {
    if (error instanceof NetworkError && error.notSent) await reserved.notSent?.().catch(() => undefined);
    throw error;
  } finally {
    reserved.answered();
    await runtime.sellers.quota.returnUnused(ref).catch(() => undefined);
  }
}
