import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { enqueueRun } from '../../../src/queue/enqueue-run.js';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { addChunk, type ChunkJobData } from '../../../src/runs/chunk-job.js';
import { countingSource, enqueueDeps, RUN_SPEC, upsert, useProducerRig } from './support/rig.js';

/**
 * A file or feed whose content changed since its earlier run is a run of its own (another
 * sourceId), but of the same address (sourceAddressId): last night's run left unread on a pause
 * can never end by itself, and tonight's run of that address ends it, as a re-run of the same
 * content does. A run read to the end that nobody is writing is superseded by it (cancelled);
 * one being written, paused by its own budget, or held is left as it is.
 */
describe('a run of a source whose content changed since its earlier run', () => {
  const rig = useProducerRig();
  const LAST_NIGHT = { ...RUN_SPEC, sourceId: 'feed-night-1', sourceAddressId: 'feed' };
  const TONIGHT = { ...RUN_SPEC, sourceId: 'feed-night-2', sourceAddressId: 'feed' };
  const deps = () => enqueueDeps(rig, { producingBeatMs: 50 });
  // Last night: long before tonight's run, its reader long marked (or dead).
  const HOURS = 3 * 3_600_000;

  /** `body` on the seller's queue, closed after. */
  async function withSellerQueue<T>(body: (queue: Queue<ChunkJobData>) => Promise<T>): Promise<T> {
    const queue = new Queue<ChunkJobData>(
      rig.keys.sellerQueue(RUN_SPEC.sellerRef),
      queueOptions(rig.redis, rig.prefix),
    );
    try {
      return await body(queue);
    } finally {
      await queue.close();
    }
  }
  const waitingChunks = () =>
    withSellerQueue((queue) => queue.getJobCountByTypes('wait', 'prioritized', 'delayed'));

  /** Last night's run as a `run --no-wait` leaves it on a pause: its first rows queued; `produced` as given. */
  async function lastNight(produced: boolean) {
    const run = await rig.runs.create(LAST_NIGHT, Date.now() - HOURS);
    await rig.redis.set(rig.keys.activeRun(RUN_SPEC.sellerRef, 'feed-night-1'), run.id);
    await withSellerQueue((queue) =>
      addChunk(queue, { runId: run.id, chunk: 0, rows: [upsert(1), upsert(2)] }),
    );
    if (produced) await rig.runs.markProduced(run.id, 2);
    return run;
  }

  it('ends the earlier run of that address left unread, and drops its waiting rows', async () => {
    const earlier = await lastNight(false);

    const tonight = await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

    expect(tonight.kind).toBe('queued');
    expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'done', aborted: true });
    // Only tonight's chunk is left waiting.
    expect(await waitingChunks()).toBe(1);
    // Over, last night's run leaves its source's runs; tonight's is listed.
    expect(await rig.redis.zrange(rig.keys.runsOfSource(RUN_SPEC.sellerRef, 'feed'), 0, -1)).toEqual([
      tonight.kind === 'queued' ? tonight.run.id : '',
    ]);
  });

  it('ends every earlier run of that address left unread, however many: also one that never claimed the source', async () => {
    const claimed = await lastNight(false);
    // Killed while it waited on the first one's reader: it never claimed the source.
    const waited = await rig.runs.create(LAST_NIGHT, Date.now() - HOURS);
    // Of other content again, killed as it read.
    const other = await rig.runs.create({ ...LAST_NIGHT, sourceId: 'feed-night-0' }, Date.now() - HOURS);

    const tonight = await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

    expect(tonight.kind).toBe('queued');
    for (const earlier of [claimed, waited, other])
      expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'done', aborted: true });
    expect(await waitingChunks()).toBe(1);
  });

  it('leaves an earlier run created a moment ago, its reader not marked yet, to read its source', async () => {
    // Created a round trip before its reader's first mark: a live process, a beat (here 10 s) to mark it.
    const starting = await rig.runs.create(LAST_NIGHT);

    await enqueueRun(enqueueDeps(rig, { producingBeatMs: 10_000 }), TONIGHT, countingSource(3).rows());

    expect(await rig.runs.get(starting.id)).toMatchObject({ state: 'queued', aborted: false });
    expect(await rig.runs.get(starting.id)).not.toHaveProperty('endingEarly');
  });

  it('ends a run left unread that an earlier version kept as the last of that address', async () => {
    const earlier = await lastNight(false);
    // As that version left it: not among its source's runs, only its last-run key.
    await rig.redis.del(rig.keys.runsOfSource(RUN_SPEC.sellerRef, 'feed'));
    const former = rig.keys.lastRunOfSource(RUN_SPEC.sellerRef, 'feed');
    await rig.redis.set(former, earlier.id);

    await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

    expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'done', aborted: true });
    expect(await rig.redis.exists(former)).toBe(0);
  });

  it('ends an earlier run of a store left unread, which never claimed the store (attached to none)', async () => {
    const STORE = { ...RUN_SPEC, sourceId: 'store-a' };
    const holder = await rig.runs.create(STORE, Date.now() - HOURS);
    await rig.redis.set(rig.keys.activeRun(RUN_SPEC.sellerRef, 'store-a'), holder.id);
    const waited = await rig.runs.create(STORE, Date.now() - HOURS);

    const next = await enqueueRun(deps(), STORE, countingSource(3).rows());

    expect(next.kind).toBe('queued');
    for (const earlier of [holder, waited])
      expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'done', aborted: true });
  });

  it('supersedes an earlier run read to the end that no worker is writing: cancelled, its rows skipped', async () => {
    const earlier = await lastNight(true);

    const tonight = await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

    expect(tonight.kind).toBe('queued');
    const tonightId = tonight.kind === 'queued' ? tonight.run.id : '';
    expect(await rig.runs.get(earlier.id)).toMatchObject({
      state: 'cancelled',
      supersededBy: tonightId,
      counts: { 'action:skipped': 2 },
    });
    // Only tonight's chunk is left waiting.
    expect(await waitingChunks()).toBe(1);
  });

  it("leaves an earlier run being written (a chunk of it in a live worker's hands) queued, ahead of its own", async () => {
    const earlier = await lastNight(true);
    const worker = new Worker<ChunkJobData>(rig.keys.sellerQueue(RUN_SPEC.sellerRef), null, {
      connection: rig.redis,
      prefix: rig.prefix,
      autorun: false,
    });
    try {
      expect((await worker.getNextJob('a-live-worker'))?.data.runId).toBe(earlier.id);

      const tonight = await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

      expect(tonight.kind).toBe('queued');
      const left = await rig.runs.get(earlier.id);
      expect(left).toMatchObject({ state: 'queued', produced: true });
      expect(left?.supersededBy).toBeUndefined();
    } finally {
      await worker.close(true);
    }
  });

  it('supersedes an earlier run whose chunk a killed process left active: its lock ran out', async () => {
    const earlier = await lastNight(true);
    const worker = new Worker<ChunkJobData>(rig.keys.sellerQueue(RUN_SPEC.sellerRef), null, {
      connection: rig.redis,
      prefix: rig.prefix,
      autorun: false,
    });
    try {
      const job = await worker.getNextJob('a-killed-worker');
      expect(job?.data.runId).toBe(earlier.id);
      // Killed: nobody renews its lock, which runs out; no stall check puts the chunk back (no worker).
      await rig.redis.del(`${rig.prefix}:${rig.keys.sellerQueue(RUN_SPEC.sellerRef)}:${job?.id}:lock`);

      const tonight = await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

      expect(tonight.kind).toBe('queued');
      const left = await rig.runs.get(earlier.id);
      // Its chunk, active still, settles its rows skipped once a stall check hands it out again.
      expect(left?.supersededBy).toBe(tonight.kind === 'queued' ? tonight.run.id : '');
      expect(left?.cancelledAt).toBeDefined();
    } finally {
      await worker.close(true);
    }
  });

  it("leaves an earlier run paused by its own --daily-budget: the budget's morning is not spent", async () => {
    const earlier = await lastNight(true);
    await rig.redis.set(rig.keys.pausedUntil(RUN_SPEC.sellerRef), Date.now() + 60_000, 'PX', 60_000);
    await rig.redis.set(rig.keys.pauseCause(RUN_SPEC.sellerRef), `budget ${earlier.id}`, 'PX', 60_000);

    await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

    expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'queued', produced: true });
    expect(await waitingChunks()).toBe(2);
  });

  it("leaves another seller's run of the same address alone", async () => {
    const earlier = await lastNight(true);

    await enqueueRun(deps(), { ...TONIGHT, sellerRef: 'another-seller' }, countingSource(30).rows());

    expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'queued', produced: true });
  });

  it('leaves a held earlier run to `approve`', async () => {
    const earlier = await lastNight(true);
    await rig.runs.finish(earlier.id, Date.now(), { held: true });

    await enqueueRun(deps(), TONIGHT, countingSource(30).rows());

    expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'held' });
  });
});
