import pLimit from 'p-limit';
import type { WorkerDeps } from '../queue/run-context.js';
import { SellerWorkers } from '../queue/seller-workers.js';
import type { Runtime } from './runtime.js';

/** The workers of this process: one request limiter of `concurrency` shared by every seller's queue. */
export function startSellerWorkers(
  runtime: Runtime,
  env: NodeJS.ProcessEnv,
  concurrency: number,
): SellerWorkers {
  const deps: WorkerDeps = {
    redis: runtime.redis,
    keys: runtime.keys,
    runs: runtime.runs,
    sellers: runtime.sellers,
    env,
    limiter: pLimit(concurrency),
    logger: runtime.logger,
    health: runtime.health,
    retry: { retries: runtime.config.retries, baseDelayMs: runtime.config.retryBaseMs, maxDelayMs: 30_000 },
    timeoutMs: 30_000,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    now: Date.now,
  };
  return new SellerWorkers(deps, {
    prefix: runtime.config.prefix,
    lockDurationMs: runtime.config.lockDurationMs,
    // Enough chunks at once to keep `concurrency` requests busy while others wait on Redis.
    chunksAtOnce: Math.max(2, Math.ceil(concurrency / 8)),
  });
}
