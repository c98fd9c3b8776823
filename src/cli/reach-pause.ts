import { bullmq } from '../cjs-packages.js';
import { REACH_PROBE_TIMEOUT_MS } from '../defaults.js';
import { queueOptions } from '../queue/queue-options.js';
import { SellerApiClient } from '../seller-api/index.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import { ApiUnreachableError } from '../sync/seller-pause.js';
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
  options: { allowInsecure: boolean },
): Promise<ReachPauseResult> {
  if (!(await runtime.sellers.status(seller.ref, '00:00')).unreachable) return { kind: 'not-paused' };
  // Without the key nothing can be probed: the workers' own probe decides.
  if (!apiKey) return { kind: 'not-paused' };
  const client = new SellerApiClient({
    baseUrl: seller.baseUrl,
    apiKey,
    allowInsecure: options.allowInsecure,
    timeoutMs: REACH_PROBE_TIMEOUT_MS,
  });
  try {
    await client.probe();
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
