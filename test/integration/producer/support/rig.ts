import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach } from 'vitest';
import type {
  InvalidRow,
  MappedRow,
  MergedRow,
  ProductUpsert,
  SkippedRow,
} from '../../../../src/interfaces.js';
import { silentLogger } from '../../../../src/logger.js';
import type { EnqueueDeps } from '../../../../src/queue/enqueue-run.js';
import { queueOptions } from '../../../../src/queue/queue-options.js';
import type { ChunkJobData } from '../../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../../src/runs/keys.js';
import { type RunSpec, RunStore } from '../../../../src/runs/run-store.js';
import { SellerRegistry } from '../../../../src/sellers/seller-registry.js';
import { SellerState } from '../../../../src/sellers/seller-state.js';
import { runSpec } from '../../../support/run-record.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../../support/redis-prefix.js';

export const SELLER_REF = 'producer-test-seller';
export const QUEUE_NAME = 'producer-test-queue';

/** What a run is asked to do, written by hand: the producer reads none of it but the store keeps it. */
export const RUN_SPEC: RunSpec = runSpec({
  sellerRef: SELLER_REF,
  baseUrl: 'http://127.0.0.1:1/api/v1',
});

export interface ProducerRig {
  prefix: string;
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  queue: Queue<ChunkJobData>;
}

/** Per test: a Redis connection, a run store and a seller queue under a prefix of its own, removed after. */
export function useProducerRig(): ProducerRig {
  const rig = {} as ProducerRig;
  beforeEach(async () => {
    const prefix = uniquePrefix();
    // BullMQ refuses a connection that gives up on commands: it must wait for Redis instead.
    const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const keys = new RedisKeys(prefix);
    Object.assign(rig, {
      prefix,
      redis,
      keys,
      runs: new RunStore(redis, keys),
      queue: new Queue<ChunkJobData>(QUEUE_NAME, queueOptions(redis, prefix)),
    } satisfies ProducerRig);
  });
  afterEach(async () => {
    await rig.queue.close();
    await rig.redis.quit();
    await removePrefix(rig.prefix);
  });
  return rig;
}

export function upsert(row: number): ProductUpsert {
  const key = `SKU-${String(row).padStart(5, '0')}`;
  return { kind: 'upsert', row, line: row + 1, key, fields: { sku: key, name: `Product ${row}`, price: 10 } };
}

export function invalid(row: number): InvalidRow {
  return { kind: 'invalid', row, line: row + 1, key: `BAD-${row}`, reason: 'price: "abc" is not a number' };
}

export function skipped(row: number): SkippedRow {
  return { kind: 'skipped', row, line: row + 1, key: `DRAFT-${row}`, reason: 'not sold in the source' };
}

export function merged(row: number, intoRow: number): MergedRow {
  return { kind: 'merged', row, line: row + 1, key: `SKU-${intoRow}`, intoRow, reason: 'image-only row' };
}

/** A source of `count` rows made by `make`, that counts how many rows the consumer has pulled. */
export function countingSource(count: number, make: (row: number) => MappedRow = upsert) {
  const source = {
    pulled: 0,
    async *rows(): AsyncGenerator<MappedRow> {
      for (let row = 1; row <= count; row++) {
        source.pulled = row;
        yield make(row);
      }
    },
  };
  return source;
}

/** Polls `check` until it holds; fails with `what` after `timeoutMs` (never a fixed sleep). */
export async function pollUntil(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The producer's wait between looks at the queue, shortened so tests do not idle. */
export const quickSleep = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

/** What enqueueRun needs, on the rig's connection and prefix; `extra` adds seams (a beat). */
export function enqueueDeps(rig: ProducerRig, extra: Partial<EnqueueDeps> = {}): EnqueueDeps {
  return {
    redis: rig.redis,
    keys: rig.keys,
    runs: rig.runs,
    sellers: new SellerState(rig.redis, rig.keys),
    registry: new SellerRegistry(rig.redis, rig.keys),
    prefix: rig.prefix,
    logger: silentLogger,
    ...extra,
  };
}
