import pLimit from 'p-limit';
import type { WorkerDeps } from '../chunks/run-context.js';
import type { CommonConfig } from '../config.js';
import { DEFAULT_TIMEOUT_MS, RETRY_MAX_DELAY_MS } from '../defaults.js';
import { SellerWorkers, type SellerWorkersOptions } from '../queue/seller-workers.js';
import { createHttpRequester } from '../seller-api/index.js';
import { blockSizeFor } from '../sellers/request-quota.js';
import { readTrustRules } from '../trust-config.js';
import type { Runtime } from './runtime.js';

/**
 * The workers of this process: one request limiter of `concurrency` shared by every seller's queue.
 * They serve a run only when `env` allows its key variable and base URL host; `own.baseUrls` adds
 * the base URLs this process was given itself (`run --base-url`, `--sandbox`), and a base URL that
 * is `http://` to a host not loopback only with this process's own `--allow-insecure`.
 */
export function startSellerWorkers(
  runtime: Runtime,
  env: NodeJS.ProcessEnv,
  concurrency: number,
  own: { baseUrls?: readonly string[]; allowInsecure: boolean },
  observe: Pick<
    WorkerDeps,
    | 'onRequestSent'
    | 'stopSending'
    | 'onRowsBegun'
    | 'onRunPlan'
    | 'onRunLeft'
    | 'answerCaps'
    | 'refreshKeys'
    | 'command'
  > = {},
): SellerWorkers {
  runtime.sellers.quota.blockSize = blockSizeFor(concurrency);
  const deps: WorkerDeps = {
    redis: runtime.commands,
    queueConnection: runtime.redis,
    keys: runtime.keys,
    runs: runtime.runs,
    sellers: runtime.sellers,
    registry: runtime.registry,
    env,
    trust: readTrustRules(env, own.baseUrls ?? []),
    allowInsecure: own.allowInsecure,
    limiter: pLimit(concurrency),
    // At most `concurrency` requests are in flight (the limiter): as many keep-alive sockets serve them.
    request: createHttpRequester({ maxSockets: concurrency }),
    logger: runtime.logger,
    health: runtime.health,
    notifier: runtime.notifier,
    retry: {
      retries: runtime.config.retries,
      baseDelayMs: runtime.config.retryBaseMs,
      maxDelayMs: RETRY_MAX_DELAY_MS,
    },
    timeoutMs: DEFAULT_TIMEOUT_MS,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    now: Date.now,
    // A killed worker's claims go stale when its jobs come back to the queue, not later.
    claimMs: runtime.config.lockDurationMs,
    ...observe,
  };
  return new SellerWorkers(deps, sellerWorkersOptions(runtime.config, concurrency));
}

/** The options of this process's workers, from its configuration (a killed worker's jobs: lock + check). */
export function sellerWorkersOptions(
  config: Pick<CommonConfig, 'prefix' | 'lockDurationMs' | 'stallCheckMs'>,
  concurrency: number,
): SellerWorkersOptions {
  return {
    prefix: config.prefix,
    lockDurationMs: config.lockDurationMs,
    stalledIntervalMs: config.stallCheckMs,
    chunksAtOnce: chunksAtOnceFor(concurrency),
  };
}

/** Enough chunks at once to keep `concurrency` requests busy while others wait on Redis. */
export function chunksAtOnceFor(concurrency: number): number {
  return Math.max(2, Math.ceil(concurrency / 8));
}
