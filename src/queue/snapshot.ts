import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';

const LOCK_MS = 30_000;
const POLL_MS = 200;

/**
 * Makes sure the run's index of the seller's products exists: the first chunk of a run reads every
 * page once, under a lock; chunks on other workers wait for it instead of reading the pages again
 * (ARCHITECTURE.md, decision 3). A reader that dies lets its lock expire, and another takes over.
 */
export async function ensureSnapshot(
  deps: { redis: Redis; keys: RedisKeys; runs: RunStore; sleep: (ms: number) => Promise<void> },
  runId: string,
  load: () => Promise<unknown>,
): Promise<void> {
  const lockKey = deps.keys.snapshotLock(runId);
  for (;;) {
    if ((await deps.redis.hget(deps.keys.run(runId), 'snapshotReady')) === '1') return;
    const token = randomUUID();
    if ((await deps.redis.set(lockKey, token, 'PX', LOCK_MS, 'NX')) === 'OK') {
      const keepAlive = setInterval(() => {
        deps.redis.pexpire(lockKey, LOCK_MS).catch(() => undefined);
      }, LOCK_MS / 3);
      try {
        await load();
        await deps.runs.markSnapshotReady(runId);
        await deps.runs.keepFor(runId);
        return;
      } finally {
        clearInterval(keepAlive);
        await deps.redis.eval(
          "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
          1,
          lockKey,
          token,
        );
      }
    }
    await deps.sleep(POLL_MS);
  }
}
