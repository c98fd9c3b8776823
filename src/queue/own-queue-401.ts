import type { Queue } from 'bullmq';
import type { WorkerDeps } from '../chunks/run-context.js';

/**
 * A 401 met by a run in a queue of its own (`run --dry-run`, run-queue.ts): the key is listed as
 * rejected (rejected-keys.ts: no process sends it again until a ping finds it accepted), and the
 * run stops, but the seller is not paused. Only this process serves that queue, and nothing else of
 * the seller waits on it: a mistyped key in a preview must not stop the workers that serve the
 * seller with its working key (docs/operations.md), nor leave a seller marked `key rejected` with
 * no queued run whose `cancel` would lift the mark. Not so for the seller's own queue: there the
 * key is the one every worker of the seller may be holding, and the seller pauses (chunk-processor.ts).
 */
export async function stopOwnQueueRun(
  deps: Pick<WorkerDeps, 'redis' | 'keys' | 'runs' | 'sellers' | 'notifier' | 'logger' | 'now'>,
  queue: Queue,
  run: { id: string; sellerRef: string },
  /** The fingerprint of the key the API answered 401 here; undefined for a pause read from Redis. */
  keyFingerprint: string | undefined,
): Promise<void> {
  const at = deps.now();
  if (keyFingerprint) await deps.sellers.rejectedKeys.add(run.sellerRef, keyFingerprint, at);
  // RunRecord.keyRejectedAt: `run`'s wait (wait-for-run.ts) returns on it, exit 3 with its one line.
  await deps.redis.hset(deps.keys.run(run.id), 'keyRejectedAt', at);
  await queue.pause();
  deps.logger.info(
    { run: run.id, seller: run.sellerRef },
    'the API key was rejected (401): this run stops; the seller is not paused (the run has a queue of its own)',
  );
  // Its own webhook only: the seller's other runs are not held by it.
  await deps.notifier?.notifyRunById('key-rejected', run.id, (id) => deps.runs.get(id));
}
