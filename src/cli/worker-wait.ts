import type { Redis } from 'ioredis';
import { WORKER_NOTICE_MS } from '../defaults.js';
import { sellerLabel } from '../queue/seller-names.js';
import { hasKeyChanged, isServed } from '../queue/served-marks.js';
import { type HintConnection, resumeCommand } from '../runs/connection-words.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';

/**
 * True when the run has rows left to send and no live process can serve its seller (none holds the
 * seller's key, so none takes its jobs: issue 13). A held, done or cancelled run waits for nobody.
 */
export async function waitsForWorker(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<boolean> {
  if (run.state !== 'queued' && run.state !== 'running') return false;
  // In a queue of its own (a `run --dry-run`): served by the process that runs it, never by a worker.
  if (run.ownQueue) return false;
  return !(await isServed(redis, keys, run.sellerRef));
}

/**
 * True when the run has rows left to send and a live worker stopped serving its seller when a key
 * changed in its keys file, the new key linked to no seller yet: it waits for `resume` to link it.
 */
export async function waitsForKeyLink(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<boolean> {
  if (run.state !== 'queued' && run.state !== 'running') return false;
  if (run.ownQueue) return false;
  return hasKeyChanged(redis, keys, run.sellerRef);
}

/**
 * waitsForWorker after an `import`, giving a running worker the time to notice the seller (its first
 * import registers it, and a worker marks it served at its next read): true only if none did.
 */
export async function noWorkerNoticed(
  redis: Redis,
  keys: RedisKeys,
  run: RunRecord,
  waitMs = WORKER_NOTICE_MS,
): Promise<boolean> {
  const until = Date.now() + waitMs;
  while (await waitsForWorker(redis, keys, run)) {
    if (Date.now() >= until) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/**
 * What to do about it, in one line: which worker to start, with which key; or leave it to the next
 * `run` (cron's, after a `run` was killed or exited 4): one of the same source waits for the run and
 * writes it, one of a changed file or feed of that source supersedes it (earlier-source-runs.ts).
 */
export function workerWaitText(run: Pick<RunRecord, 'sellerRef' | 'sellerName' | 'keyEnv'>): string {
  return (
    `no running worker holds seller ${sellerLabel(run.sellerRef, run.sellerName)}'s key: ` +
    `start \`catalog-sync worker\` with it in $${run.keyEnv} (or in its --keys-file), ` +
    'in an environment that allows its API host (CATALOG_SYNC_API_HOSTS); or the next ' +
    '`catalog-sync run` of its source takes it up (of a changed file or feed: supersedes it)'
  );
}

/**
 * What to do when a worker's keys file changed the seller's key for one no `resume` linked yet: the
 * worker cannot know the new key is this seller's (it might be another account's) until `resume`
 * pings it and links it; then that worker goes on with it.
 */
export function keyLinkWaitText(
  run: Pick<RunRecord, 'sellerRef' | 'sellerName' | 'keyEnv' | 'baseUrl' | 'keysFile'>,
  connection: HintConnection,
): string {
  // The new key is in the worker's keys file, which the run's record does not name: FILE.
  const resume = resumeCommand(run, run.keyEnv, connection, 'FILE');
  return (
    `a running worker read a changed key for seller ${sellerLabel(run.sellerRef, run.sellerName)} in its ` +
    `--keys-file, one not linked to this seller yet: if it is its new key in $${run.keyEnv}, ` +
    `${resume} links it`
  );
}
