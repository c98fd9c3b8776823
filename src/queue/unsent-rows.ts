import type { Redis } from 'ioredis';
import { notSyncedOutcomes } from '../chunks/chunk-loop.js';
import { bullmq } from '../cjs-packages.js';
import { type ChunkJobData, sourcesByRow } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { jobsOfRun, WAITING_STATES } from './cancel-run.js';
import { queueOptions } from './queue-options.js';
import { queueNameOf } from './run-queue.js';

/** What the rows of a run that ended early, queued but never sent (or planned), are reported with. */
export function unsentReason(dryRun: boolean): string {
  return `${dryRun ? 'not planned' : 'not sent'}: the source broke before its turn (run it again)`;
}

export interface UnsentDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  prefix: string;
}

/**
 * The chunks a run ended early (its source broke half way) left waiting in its queue: no row of them
 * is sent any more, and a worker that takes one settles its rows so (chunk-processor.ts), but `run`
 * writes its report now, with no worker of its own left. They are taken out and their rows settled
 * `skipped`, `failed`, with unsentReason (and their source values, for `report --failed-only`), so that
 * the report lists every row read. A chunk a worker holds (this process's or another's) is left to
 * it. Resolves to the rows settled so.
 */
export async function settleUnsentRows(deps: UnsentDeps, run: RunRecord): Promise<number> {
  const reason = unsentReason(run.dryRun);
  const queue = new (bullmq().Queue)<ChunkJobData>(
    queueNameOf(deps.keys, run),
    queueOptions(deps.redis, deps.prefix),
  );
  queue.on('error', () => undefined);
  let settled = 0;
  try {
    for (const job of await jobsOfRun(queue, run.id, WAITING_STATES)) {
      // 0: a worker took it meanwhile; it finds the run ended and settles its rows itself.
      if ((await queue.remove(job.id as string)) !== 1) continue;
      await deps.runs.settle(run.id, notSyncedOutcomes(job.data.rows, reason), sourcesByRow(job.data));
      settled += job.data.rows.length;
    }
  } finally {
    await queue.close();
  }
  return settled;
}
