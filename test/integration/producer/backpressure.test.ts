import { Queue, Worker } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE, DEFAULT_HIGH_WATER, INCREMENTAL_CHUNK_SIZE } from '../../../src/defaults.js';
import { enqueueRun } from '../../../src/queue/enqueue-run.js';
import { produceChunks } from '../../../src/queue/producer.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { sellerQueueName } from '../../../src/sellers/seller-ref.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import {
  countingSource,
  enqueueDeps,
  pollUntil,
  QUEUE_NAME,
  quickSleep,
  RUN_SPEC,
  SELLER_REF,
  useProducerRig,
} from './support/rig.js';

const ROWS = 100;
const CHUNK_SIZE = 10;
const HIGH_WATER = 3;

// Issue 4: memory and Redis stay flat whatever the source size (docs/architecture.md, decision 6).
describe('the producer with a high-water mark of 3 waiting jobs and chunks of 10 rows', () => {
  const rig = useProducerRig();

  async function startProducing(sellerPause?: () => Promise<string | null>, leaveUnread?: AbortSignal) {
    const run = await rig.runs.create(RUN_SPEC);
    const source = countingSource(ROWS);
    const waits: number[] = [];
    const pauses: (string | null)[] = [];
    const produced = produceChunks({
      redis: rig.redis,
      keys: rig.keys,
      runs: rig.runs,
      queue: rig.queue,
      runId: run.id,
      rows: source.rows(),
      chunkSize: CHUNK_SIZE,
      highWater: HIGH_WATER,
      sleep: quickSleep,
      onBackpressure: (waiting, pause) => {
        waits.push(waiting);
        pauses.push(pause);
      },
      ...(sellerPause ? { sellerPause } : {}),
      ...(leaveUnread ? { leaveUnread } : {}),
    });
    return { run, source, waits, pauses, produced };
  }

  const waitingJobs = () => rig.queue.getJobCountByTypes('wait', 'prioritized', 'delayed');

  describe('when no worker takes the jobs', () => {
    it('stops reading the source at the mark, with one chunk in hand', async () => {
      const { source, waits, produced } = await startProducing();
      let settled = false;
      void produced.then(() => {
        settled = true;
      });

      // Several looks at a full queue: the producer is waiting, not merely slow.
      await pollUntil('the producer has found the queue full three times', () => waits.length >= 3);

      expect(await waitingJobs()).toBe(HIGH_WATER);
      expect(waits.every((waiting) => waiting === HIGH_WATER)).toBe(true);
      // Three chunks queued and the fourth read but held back: the other 60 rows are still unread.
      expect(source.pulled).toBe((HIGH_WATER + 1) * CHUNK_SIZE);
      expect(settled).toBe(false);

      // Removing the waiting jobs makes room: the producer reads on, one mark's worth at a time.
      const looksBefore = waits.length;
      await rig.queue.drain();
      // Two more looks at a full queue: at most one of them was taken before the drain.
      await pollUntil('the producer has found the queue full again', () => waits.length >= looksBefore + 2);
      expect(await waitingJobs()).toBe(HIGH_WATER);
      // The chunk in hand and two more queued, the seventh read and held back.
      expect(source.pulled).toBe(2 * HIGH_WATER * CHUNK_SIZE + CHUNK_SIZE);
      while (!settled) {
        await rig.queue.drain();
        await pollUntil(
          'the queue is full again or the source read',
          async () => settled || (await waitingJobs()) > 0,
        );
      }
      expect(await produced).toEqual({ total: ROWS, chunks: 10 });
      expect(source.pulled).toBe(ROWS);
    });
  });

  describe('when a worker completes the jobs', () => {
    it('reads on and queues all 10 chunks, with a total of 100 rows', async () => {
      const { run, source, waits, produced } = await startProducing();
      await pollUntil('the producer has found the queue full', () => waits.length >= 1);
      expect(source.pulled).toBe((HIGH_WATER + 1) * CHUNK_SIZE);

      const taken: string[] = [];
      const worker = new Worker<ChunkJobData>(
        QUEUE_NAME,
        async (job) => {
          taken.push(job.id ?? '');
        },
        { connection: { url: TEST_REDIS_URL, maxRetriesPerRequest: null }, prefix: rig.prefix },
      );
      try {
        const result = await produced;
        await pollUntil('the worker has taken every chunk', () => taken.length === 10);

        expect(result).toEqual({ total: ROWS, chunks: 10 });
        expect(source.pulled).toBe(ROWS);
        expect(taken.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))).toEqual(
          Array.from({ length: 10 }, (_, chunk) => `${run.id}-${chunk}`),
        );
        expect((await rig.runs.get(run.id))?.total).toBe(ROWS);
      } finally {
        await worker.close();
      }
    });
  });

  // Issue 12: queueing every chunk while paused cost a 1M-row import 373 MiB and Redis 296 MiB.
  describe('when the seller is paused (daily limit or rejected key)', () => {
    it('stops at the mark all the same, and says why it waits', async () => {
      const { source, waits, pauses, produced } = await startProducing(async () => 'paused until tomorrow');
      produced.catch(() => undefined);

      await pollUntil('the producer has found the queue full three times', () => waits.length >= 3);

      expect(await waitingJobs()).toBe(HIGH_WATER);
      expect(source.pulled).toBe((HIGH_WATER + 1) * CHUNK_SIZE);
      expect(pauses.every((pause) => pause === 'paused until tomorrow')).toBe(true);
      await rig.queue.drain();
      await pollUntil('the producer has found the queue full again', () => waits.length >= 6);
      expect(await waitingJobs()).toBe(HIGH_WATER);
      expect(source.pulled).toBe(2 * HIGH_WATER * CHUNK_SIZE + CHUNK_SIZE);
    });

    it('leaves the rest of the source unread when told, with the queued rows and the run as they are', async () => {
      const leave = new AbortController();
      const { run, source, waits, produced } = await startProducing(async () => 'paused', leave.signal);
      await pollUntil('the producer has found the queue full', () => waits.length >= 1);

      leave.abort();

      await expect(produced).rejects.toMatchObject({
        name: 'SourceLeftUnreadError',
        rowsQueued: HIGH_WATER * CHUNK_SIZE,
      });
      expect(source.pulled).toBe((HIGH_WATER + 1) * CHUNK_SIZE);
      expect(await waitingJobs()).toBe(HIGH_WATER);
      const record = await rig.runs.get(run.id);
      expect(record?.produced).toBe(false);
      expect(record?.state).not.toBe('done');
    });
  });
});

// The mark counts chunks: an --incremental run's chunks of 1,000 rows must not queue ten times the rows.
describe('an --incremental run queued with no worker (chunks of 1,000 rows)', () => {
  const rig = useProducerRig();
  const markRows = DEFAULT_HIGH_WATER * DEFAULT_CHUNK_SIZE;

  it('holds at as many rows as a plain run does, in fewer chunks', async () => {
    const source = countingSource(markRows + 3 * INCREMENTAL_CHUNK_SIZE);
    const leave = new AbortController();
    const waits: number[] = [];
    const produced = enqueueRun(enqueueDeps(rig), { ...RUN_SPEC, incremental: true }, source.rows(), {
      leaveUnread: leave.signal,
      onBackpressure: (waiting) => {
        waits.push(waiting);
        // The next look at the full queue gives up: the rows queued are what the mark let through.
        leave.abort();
      },
    });

    await expect(produced).rejects.toMatchObject({ name: 'SourceLeftUnreadError', rowsQueued: markRows });
    const queue = new Queue<ChunkJobData>(sellerQueueName(SELLER_REF), {
      connection: rig.redis,
      prefix: rig.prefix,
    });
    try {
      const jobs = await queue.getJobs(['wait', 'prioritized', 'delayed']);
      expect(jobs.map((job) => job.data.rows.length)).toEqual(
        Array(markRows / INCREMENTAL_CHUNK_SIZE).fill(INCREMENTAL_CHUNK_SIZE),
      );
      expect(waits[0]).toBe(markRows / INCREMENTAL_CHUNK_SIZE);
      // The chunk in hand was read, the rest not.
      expect(source.pulled).toBe(markRows + INCREMENTAL_CHUNK_SIZE);
    } finally {
      await queue.close();
    }
  });
});
