import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ProductUpsert } from '../interfaces.js';
import { enqueueDeactivations } from '../missing/deactivations.js';
import { heldDeactivations, makeHeldDue } from '../missing/held-deactivations.js';
import type { ChunkJobData } from '../queue/chunk-job.js';
import { endAfterDeactivations } from '../queue/finalise.js';
import { addChunk, DEFAULT_CHUNK_SIZE } from '../queue/producer.js';
import { queueOptions } from '../queue/queue-options.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import { SNAPSHOT_FAILED } from '../sync/snapshot.js';
import { UsageError } from '../usage-error.js';
import { HeldRows } from './held-rows.js';
import { PlanStore } from './plan-store.js';

interface ApprovalDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  prefix: string;
}

/** What `approve` queued: held rows, and (approving the whole run) held deactivations. */
export interface Approved {
  rows: number;
  deactivations: number;
}

// A held run becomes running again, once (two approves at once: one wins). The run's index of the
// seller's products is dropped, so that the approved rows are diffed against the products as they
// are now: a product changed meanwhile is re-planned, not blindly written.
const START_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') ~= 'held' then return 0 end
redis.call('HSET', KEYS[1], 'state', 'running', 'approving', ARGV[1], 'approvedAt', ARGV[2])
redis.call('HDEL', KEYS[1], 'snapshotReady', ARGV[3], 'deactivationsEnded')
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
return redis.call('HINCRBY', KEYS[1], 'approvals', 1)
`;

/** `--rows 3,7,…`: data row numbers. */
export function parseRowList(text: string): number[] {
  const rows = text.split(',').map((part) => part.trim());
  if (rows.length === 0 || rows.some((row) => !/^[1-9]\d{0,9}$/.test(row)))
    throw new UsageError(`--rows takes data row numbers such as 3,7, not "${text}"`);
  return [...new Set(rows.map(Number))].sort((a, b) => a - b);
}

/**
 * Queues the held writes of a run for the workers (all, or `rows`), after checking that each is held:
 * one line (exit 2) for a run that holds nothing or a row that is not held. Held deactivations
 * (`--missing`) have no row number: they go with the whole run's approval, never with `--rows`.
 * Resolves to how many of each.
 */
export async function queueApproval(
  deps: ApprovalDeps,
  run: RunRecord,
  rows: number[] | null,
  now = Date.now(),
): Promise<Approved> {
  const held = new HeldRows(deps.redis, deps.keys);
  const heldCount = run.counts['status:held'] ?? 0;
  if (run.state !== 'held' || heldCount + heldDeactivations(run) === 0)
    throw new UsageError(`run ${run.id} holds nothing to approve (it is ${run.state})`);
  if (rows) {
    const heldNow = await held.heldAmong(run.id, rows);
    const notHeld = rows.find((row) => !heldNow.has(row));
    if (notHeld !== undefined) {
      const where = notHeld > run.total ? `run ${run.id} has ${run.total} rows` : 'see `catalog-sync report`';
      throw new UsageError(`row ${notHeld} of run ${run.id} is not held (${where})`);
    }
  }
  const count = rows ? rows.length : heldCount;
  const round = (await deps.redis.eval(
    START_SCRIPT,
    4,
    deps.keys.run(run.id),
    deps.keys.products(run.id),
    deps.keys.keyToId(run.id),
    deps.keys.idToKey(run.id),
    count,
    now,
    SNAPSHOT_FAILED,
  )) as number;
  if (round === 0) throw new UsageError(`run ${run.id} is being approved already`);
  // Due again before any approved row is queued: the round's last row then sees deactivations to
  // come and leaves ending the run to them (held-rows.ts, finalise.ts endAfterDeactivations).
  const deactivations = rows ? 0 : await makeHeldDue(deps, run);
  const queue = new Queue<ChunkJobData>(
    deps.keys.sellerQueue(run.sellerRef),
    queueOptions(deps.redis, deps.prefix),
  );
  try {
    if (count > 0) await enqueue(deps, run, rows ?? held.all(run.id, run.total), round, queue);
    if (deactivations > 0) await enqueueDeactivations(deps, run.id, queue, round);
    // Every held deactivation came back into the source meanwhile: nothing to send, the run ends.
    else if (count === 0) await endAfterDeactivations(deps, run.id);
  } finally {
    await queue.close();
  }
  return { rows: count, deactivations };
}

async function enqueue(
  deps: ApprovalDeps,
  run: RunRecord,
  rows: Iterable<number> | AsyncIterable<number>,
  round: number,
  queue: Queue<ChunkJobData>,
): Promise<void> {
  const plans = new PlanStore(deps.redis, deps.keys);
  let batch: number[] = [];
  let chunk = 0;
  const flush = async () => {
    const writes = await plans.get(run.id, batch);
    const upserts: ProductUpsert[] = batch.flatMap((row) => {
      const write = writes.get(row);
      return write ? [write.upsert] : [];
    });
    batch = [];
    if (upserts.length > 0)
      await addChunk(queue, { runId: run.id, chunk: chunk++, rows: upserts, phase: 'approve', round });
  };
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= DEFAULT_CHUNK_SIZE) await flush();
  }
  await flush();
}
