import type { Redis } from 'ioredis';
import pLimit from 'p-limit';
import type { WorkerDeps } from '../../../src/chunks/run-context.js';
import { silentLogger } from '../../../src/logger.js';
import type { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { SellerRegistry } from '../../../src/sellers/seller-registry.js';
import { SellerState } from '../../../src/sellers/seller-state.js';
import { readTrustRules } from '../../../src/trust-config.js';

/**
 * What a `worker` process gives the chunk processor, for a test that runs it in its own process:
 * its environment (the keys it holds, the hosts it trusts), quick retries, no log.
 */
export function testWorkerDeps(redis: Redis, keys: RedisKeys, env: NodeJS.ProcessEnv): WorkerDeps {
  return {
    redis,
    keys,
    runs: new RunStore(redis, keys),
    sellers: new SellerState(redis, keys),
    registry: new SellerRegistry(redis, keys),
    env,
    trust: readTrustRules(env),
    allowInsecure: false,
    limiter: pLimit(4),
    logger: silentLogger,
    retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
    timeoutMs: 5_000,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: () => 0.5,
    now: Date.now,
  };
}
