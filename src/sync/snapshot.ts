import type { Redis } from 'ioredis';
import { SNAPSHOT_LOCK_MS, SNAPSHOT_POLL_MS } from '../defaults.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { AnswerCapError } from '../seller-api/index.js';
import { failsForGood, reasonOf } from './error-policy.js';
import { tryLock } from './redis-lock.js';

/** The run-record field that says the product list could not be read, and why. */
export const SNAPSHOT_FAILED = 'snapshotFailed';
/** Set beside it when the list passed a cap of the API's answers (answer-caps.ts): `run` exits 2. */
export const SNAPSHOT_CAPPED = 'snapshotCapped';

/** The seller's product list could not be read: without it no row of the run can be diffed. */
export class SnapshotError extends Error {
  override name = 'SnapshotError';

  /** The failure as first met, with its cause. Chunks that meet it later get only its message. */
  static of(cause: unknown): SnapshotError {
    return new SnapshotError(`the seller's products could not be read: ${reasonOf(cause)}`, { cause });
  }
}

export interface SnapshotDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  /** The wait between two looks while another worker reads the list. */
  sleep: (ms: number) => Promise<void>;
}

/**
 * Makes sure the run's index of the seller's products exists: the first chunk of a run reads every
 * page once, under a lock; chunks on other workers wait for it instead of reading the pages again
 * (docs/architecture.md, decision 3). A reader that dies lets its lock expire, and another takes over.
 * Rejects with SnapshotError once the list could not be read (for every chunk of the run, without
 * reading it again), and with the error itself for a pause or a failure that is not the API's.
 */
export async function ensureSnapshot(
  deps: SnapshotDeps,
  runId: string,
  load: () => Promise<unknown>,
): Promise<void> {
  const lockKey = deps.keys.snapshotLock(runId);
  for (;;) {
    if (await snapshotSettled(deps, runId)) return;
    const lock = await tryLock(deps.redis, lockKey, { ttlMs: SNAPSHOT_LOCK_MS });
    if (!lock) {
      // The reader is a chunk of this process (the second chunk of a `run`): its end, not a poll,
      // says when to look again (a poll cost that chunk up to SNAPSHOT_POLL_MS of idle requests).
      const here = readsHere.get(lockKey);
      if (here) await here.catch(() => undefined);
      else await deps.sleep(SNAPSHOT_POLL_MS);
      continue;
    }
    const read = (async () => {
      try {
        // Look again under the lock: the reader before us may have finished between our first look
        // and our lock, and its pages must not be read a second time (issue 9, item 6).
        if (await snapshotSettled(deps, runId)) return;
        await readOnce(deps, runId, load);
      } finally {
        await lock.release();
      }
    })();
    readsHere.set(lockKey, read);
    try {
      await read;
      return;
    } finally {
      readsHere.delete(lockKey);
    }
  }
}

/** The list reads under way in this process, by their lock's key. */
const readsHere = new Map<string, Promise<void>>();

/** True once the snapshot is ready; throws its recorded failure; false while it is neither. */
async function snapshotSettled(deps: SnapshotDeps, runId: string): Promise<boolean> {
  const [ready, failed] = await deps.redis.hmget(deps.keys.run(runId), 'snapshotReady', SNAPSHOT_FAILED);
  if (failed) throw new SnapshotError(failed);
  return ready === '1';
}

async function readOnce(deps: SnapshotDeps, runId: string, load: () => Promise<unknown>): Promise<void> {
  try {
    await load();
  } catch (error) {
    // A pause is no failure: the list is read when the seller may be asked again. A Redis error is
    // the job's to try again (BullMQ attempts).
    if (!failsForGood(error)) throw error;
    // The page was tried as often as the client's retry policy allows (the one retry layer of a
    // read): the failure is recorded before the lock goes, so no chunk of the run reads it again.
    const failure = SnapshotError.of(error);
    if (error instanceof AnswerCapError) await deps.redis.hsetnx(deps.keys.run(runId), SNAPSHOT_CAPPED, '1');
    await deps.redis.hsetnx(deps.keys.run(runId), SNAPSHOT_FAILED, failure.message);
    throw failure;
  }
  await deps.runs.markSnapshotReady(runId);
  await deps.runs.keepFor(runId);
}
