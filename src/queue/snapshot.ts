import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { tryLock } from './redis-lock.js';

const LOCK_MS = 30_000;
const POLL_MS = 200;

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
 * (ARCHITECTURE.md, decision 3). A reader that dies lets its lock expire, and another takes over.
 */
export async function ensureSnapshot(
  deps: SnapshotDeps,
  runId: string,
  load: () => Promise<unknown>,
): Promise<void> {
  for (;;) {
    if (await snapshotReady(deps, runId)) return;
    const lock = await tryLock(deps.redis, deps.keys.snapshotLock(runId), { ttlMs: LOCK_MS });
    if (!lock) {
      await deps.sleep(POLL_MS);
      continue;
    }
    try {
      // Look again under the lock: the reader before us may have finished between our first look
      // and our lock, and its pages must not be read a second time (issue 9, item 6).
      if (await snapshotReady(deps, runId)) return;
      await readOnce(deps, runId, load);
      return;
    } finally {
      await lock.release();
    }
  }
}

async function snapshotReady(deps: SnapshotDeps, runId: string): Promise<boolean> {
  return (await deps.redis.hget(deps.keys.run(runId), 'snapshotReady')) === '1';
}

async function readOnce(deps: SnapshotDeps, runId: string, load: () => Promise<unknown>): Promise<void> {
  await load();
  await deps.runs.markSnapshotReady(runId);
  await deps.runs.keepFor(runId);
}
