import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { DEFAULT_CHUNK_SIZE } from '../defaults.js';
import type { RowOutcome, RowStatus } from '../interfaces.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { ChunkJobData, DeactivateItem } from '../runs/chunk-job.js';
import { addChunk } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import { decodeEntry } from '../sync/index-entry.js';
import { DeactivatedStore } from './deactivated-store.js';
import { DeactivationClaims } from './deactivation-claims.js';
import { mergedRecord } from './merged-record.js';
import { alreadySo, formerValues, type MissingValues, notGivenBackNote } from './missing-values.js';

interface DueDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/** The run's due deactivations (keys.deactivations), in batches; HSCAN may repeat one, never skip one. */
export async function* dueBatches(deps: DueDeps, runId: string): AsyncGenerator<DeactivateItem[]> {
  let cursor = '0';
  do {
    const [next, flat] = await deps.redis.hscan(
      deps.keys.deactivations(runId),
      cursor,
      'COUNT',
      DEFAULT_CHUNK_SIZE,
    );
    cursor = next;
    const items: DeactivateItem[] = [];
    for (let i = 0; i < flat.length; i += 2)
      items.push({ id: flat[i] as string, key: flat[i + 1] as string });
    if (items.length > 0) yield items;
  } while (cursor !== '0');
}

/** A `deactivate` report line. */
export function deactivateLine(
  item: DeactivateItem,
  status: RowStatus,
  error = '',
  note: string | undefined = '',
): RowOutcome {
  return {
    row: null,
    key: item.key,
    action: 'deactivate',
    productId: item.id,
    status,
    error,
    ...(note ? { note } : {}),
  };
}

/**
 * Settles every due deactivation without a request: `planned` (dry run) or `held` with the reason.
 * With `preview` (the run's `--missing` values), each line says what its PUT would say of a field it
 * could not give back (deactivate-chunk.ts).
 */
export async function settleDueAs(
  deps: DueDeps,
  runId: string,
  status: RowStatus,
  error = '',
  preview?: { missing: MissingValues; sellerRef: string },
): Promise<void> {
  for await (const items of dueBatches(deps, runId)) {
    const notes = preview ? await previewNotes(deps, runId, preview, items) : new Map<string, string>();
    await deps.runs.addMissing(
      runId,
      items.map((item) => deactivateLine(item, status, error, notes.get(item.id))),
      true,
    );
  }
}

/**
 * A `deactivate` job's products it will not send (its last attempt failed, or its run was
 * cancelled): settled `failed` with the reason, but for those another live job holds (that job
 * sends and settles them) and those settled already. `holder` is the job's id: its own claims are
 * its own (deactivation-claims.ts).
 */
export async function settleJobUnsent(
  deps: DueDeps,
  runId: string,
  job: { holder: string; items: DeactivateItem[]; claimMs: number },
  reason: string,
): Promise<void> {
  const claims = new DeactivationClaims(deps.redis, deps.keys, job.claimMs);
  const held = await claims.claim(
    runId,
    job.holder,
    job.items.map((item) => item.id),
  );
  await deps.runs.addMissing(
    runId,
    job.items.filter((_, i) => held[i] === 'ours').map((item) => deactivateLine(item, 'failed', reason)),
    true,
  );
}

/**
 * `cancel`: the due deactivations no job in progress holds (`busy`, their ids) are settled `failed`
 * with the reason, without a claim: the jobs that held them are out of the queue, and one that paused
 * (the daily limit) keeps its claims until they run out. Settled, no job sends them any more (a job
 * sends only the products still due that it claims).
 */
export async function settleDueUnsent(
  deps: DueDeps,
  runId: string,
  busy: ReadonlySet<string>,
  reason: string,
): Promise<void> {
  for await (const items of dueBatches(deps, runId)) {
    const unsent = items.filter((item) => !busy.has(item.id));
    await deps.runs.addMissing(
      runId,
      unsent.map((item) => deactivateLine(item, 'failed', reason)),
      true,
    );
  }
}

/** The note each deactivation would get when sent: the fields it could not give back, by product id. */
async function previewNotes(
  deps: DueDeps,
  runId: string,
  preview: { missing: MissingValues; sellerRef: string },
  items: DeactivateItem[],
): Promise<Map<string, string>> {
  const [listed, records] = await Promise.all([
    deps.redis.hmget(deps.keys.products(runId), ...items.map((item) => item.id)),
    new DeactivatedStore(deps.redis, deps.keys, preview.sellerRef).getMany(items.map((item) => item.id)),
  ]);
  const notes = new Map<string, string>();
  items.forEach((item, i) => {
    const json = listed[i];
    const values = json ? decodeEntry(item.id, json).values : {};
    if (alreadySo(values, preview.missing)) return;
    // What the send would record: the product's record with this run's fields merged in.
    const fresh = { id: item.id, former: formerValues(values, preview.missing) };
    const kept = records.get(item.id);
    const [note] = notGivenBackNote(kept ? (mergedRecord(kept, fresh) ?? kept) : fresh);
    if (note) notes.set(item.id, note);
  });
  return notes;
}

/**
 * Puts the due deactivations in the seller's queue. Each job gets a chunk number the run never gave
 * before (run record field `deactivationChunks`): queued again by a finaliser or an approve stopped
 * half way, the products still due are grouped anew, and a reused id that a job still holds
 * (active, or kept as failed) would have dropped them, leaving the run unable to end. A product
 * two jobs then hold is sent once (deactivation-claims.ts).
 */
export async function enqueueDeactivations(
  deps: DueDeps,
  runId: string,
  queue: Queue<ChunkJobData>,
  round = 0,
): Promise<void> {
  for await (const items of dueBatches(deps, runId)) {
    const next = Number(await runScript(deps.redis, NEXT_CHUNK, deps.keys.run(runId)));
    // The run's record is gone (expired, Redis lost it): nothing of it is queued any more.
    if (next < 0) return;
    await addChunk(queue, { runId, chunk: next, rows: [], phase: 'deactivate', round, deactivate: items });
  }
}

// KEYS: the run's record. The next `deactivate` chunk number of the run (field deactivationChunks,
// counted over every round), or -1 when the record is gone: a bare HINCRBY would make a record of
// that one field, without the run's lifetime.
const NEXT_CHUNK = luaScript(
  'nextDeactivationChunk',
  1,
  "if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end return redis.call('HINCRBY', KEYS[1], 'deactivationChunks', 1) - 1",
);
