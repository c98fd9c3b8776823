import type { Redis } from 'ioredis';
import { bullmq } from '../cjs-packages.js';
import { PRODUCING_BEAT_MS, PRODUCING_BEATS_KEPT } from '../defaults.js';
import type { Logger } from '../logger.js';
import { renewWhile } from '../redis/renew-while.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import { queueOptions } from './queue-options.js';
import { throttledErrorLog } from './quiet-errors.js';
import { type RunInTheWay, takeRevertTurn, wakeNextRun } from './run-order.js';

export interface RevertTurnDeps {
  /** BullMQ's connection: the seller's queue, to wake a run that waited. */
  redis: Redis;
  /** The tool's own connection: the mark and its renewals go on it, in order. */
  commands: Redis;
  keys: RedisKeys;
  prefix: string;
  logger: Logger;
  /** How often the mark is renewed (default PRODUCING_BEAT_MS); a test seam. */
  beatMs?: number;
}

/**
 * `revert` reads a run's products and PUTs their old values back: a write to the seller's products
 * like a run's, so it keeps the seller's order of runs (run-order.ts, docs/architecture.md decision
 * 10). It does not begin while another run of the seller is read, queued or under way (the run in
 * the way is returned, nothing is done: its writes would land before or after the revert's, product
 * by product); while it works, the reverted run is listed among the seller's runs being read, like a
 * producer's, so that a run begun meanwhile waits for it. The mark is renewed every beat and lapses
 * six beats after a killed revert's last; at the end it goes, and the run that waited is woken.
 */
export async function inRevertTurn<T>(
  deps: RevertTurnDeps,
  run: { id: string; sellerRef: string },
  work: () => Promise<T>,
): Promise<{ inTheWay: RunInTheWay } | { done: T }> {
  const beatMs = deps.beatMs ?? PRODUCING_BEAT_MS;
  const lifetime = beatMs * PRODUCING_BEATS_KEPT;
  const order = { redis: deps.commands, keys: deps.keys, now: Date.now };
  const inTheWay = await takeRevertTurn(order, run.sellerRef, run.id, lifetime);
  if (inTheWay) return { inTheWay };
  const reading = deps.keys.sellerReading(run.sellerRef);
  const renew = () => deps.commands.zadd(reading, Date.now() + lifetime, run.id);
  try {
    return { done: await renewWhile(renew, beatMs, work) };
  } finally {
    // On the connection of the renewals: none sent before lists the run again after this.
    await deps.commands.zrem(reading, run.id).catch(() => undefined);
    await wakeNextRun(order, run.sellerRef, () => sellerQueue(deps, run.sellerRef)).catch(() => undefined);
  }
}

function sellerQueue(deps: RevertTurnDeps, sellerRef: string) {
  const name = deps.keys.sellerQueue(sellerRef);
  const queue = new (bullmq().Queue)<ChunkJobData>(name, queueOptions(deps.redis, deps.prefix));
  queue.on('error', throttledErrorLog(deps.logger, `queue ${name}`));
  return queue;
}
