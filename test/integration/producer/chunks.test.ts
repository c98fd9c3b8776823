import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { MappedRow } from '../../../src/interfaces.js';
import { enqueueRun } from '../../../src/queue/enqueue-run.js';
import { produceChunks } from '../../../src/queue/producer.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { decodeOutcome } from '../../../src/runs/run-store.js';
import { sellerQueueName } from '../../../src/sellers/seller-ref.js';
import { gate } from '../../support/gate.js';
import {
  countingSource,
  enqueueDeps,
  invalid,
  merged,
  pollUntil,
  RUN_SPEC,
  SELLER_REF,
  skipped,
  upsert,
  useProducerRig,
} from './support/rig.js';

describe('the chunks the producer queues', () => {
  const rig = useProducerRig();

  const rigOptions = (runId: string) => ({
    redis: rig.redis,
    keys: rig.keys,
    runs: rig.runs,
    queue: rig.queue,
    runId,
  });
  const produce = (runId: string, rows: AsyncIterable<MappedRow>) =>
    produceChunks({ ...rigOptions(runId), rows, chunkSize: 10 });

  /** `target` with one method replaced; the others are its own, bound to it. */
  function replacing<T extends object, K extends keyof T>(target: T, name: K, method: T[K]): T {
    return new Proxy(target, {
      get(object, property) {
        if (property === name) return method;
        const value = Reflect.get(object, property, object);
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });
  }

  /** The rig's connection, with the `nth` pipeline made on it (from 1) sent only once `until` settles. */
  function holdingPipeline(nth: number, until: Promise<void>) {
    let made = 0;
    return replacing(rig.redis, 'pipeline', ((...args: Parameters<typeof rig.redis.pipeline>) => {
      const pipeline = rig.redis.pipeline(...args);
      if (++made !== nth) return pipeline;
      const exec = pipeline.exec.bind(pipeline);
      pipeline.exec = async () => {
        await until;
        return exec();
      };
      return pipeline;
    }) as typeof rig.redis.pipeline);
  }

  /** The jobs waiting in the seller's queue as enqueueRun named it (not the rig's own queue). */
  async function sellerQueueJobs() {
    const queue = new Queue<ChunkJobData>(sellerQueueName(SELLER_REF), {
      connection: rig.redis,
      prefix: rig.prefix,
    });
    try {
      return await queue.getJobs(['wait', 'prioritized', 'delayed']);
    } finally {
      await queue.close();
    }
  }

  const queuedJobs = async () =>
    (await rig.queue.getJobs(['wait', 'prioritized', 'delayed'])).sort((a, b) => a.data.chunk - b.data.chunk);

  describe('when the source holds invalid and merged rows among the products', () => {
    // Rows 1–25: every 5th invalid, every 7th (not 5th) merged into the row before it.
    const mixed = (row: number): MappedRow =>
      row % 5 === 0 ? invalid(row) : row % 7 === 0 ? merged(row, row - 1) : upsert(row);

    it('settles them at once and queues only the products, in chunks', async () => {
      const run = await rig.runs.create(RUN_SPEC);

      const result = await produce(run.id, countingSource(25, mixed).rows());

      const jobs = await queuedJobs();
      const upsertRows = jobs.flatMap((job) => job.data.rows.map((r) => r.row));
      expect(result).toEqual({ total: 25, chunks: 2 });
      expect(jobs.map((job) => job.data.rows.length)).toEqual([10, 7]);
      expect(upsertRows).toEqual([1, 2, 3, 4, 6, 8, 9, 11, 12, 13, 16, 17, 18, 19, 22, 23, 24]);
      const outcomes = await rig.redis.hgetall(rig.keys.outcomes(run.id));
      expect(
        Object.keys(outcomes)
          .map(Number)
          .sort((a, b) => a - b),
      ).toEqual([5, 7, 10, 14, 15, 20, 21, 25]);
      expect(decodeOutcome(5, outcomes['5'] ?? '')).toEqual({
        row: 5,
        key: 'BAD-5',
        action: 'invalid',
        productId: null,
        status: 'failed',
        error: 'price: "abc" is not a number',
      });
      expect(decodeOutcome(7, outcomes['7'] ?? '')).toMatchObject({
        action: 'merged',
        status: 'ok',
        error: 'merged into row 6: image-only row',
      });
      expect(await rig.runs.get(run.id)).toMatchObject({ total: 25, settled: 8 });
    });
  });

  describe('when the source holds rows it does not sell (skipped)', () => {
    it('settles them at once as skipped, status ok, with the reason, and queues only the products', async () => {
      const run = await rig.runs.create(RUN_SPEC);

      const result = await produce(
        run.id,
        countingSource(4, (row) => (row % 2 ? upsert(row) : skipped(row))).rows(),
      );

      const jobs = await queuedJobs();
      expect(result).toEqual({ total: 4, chunks: 1 });
      expect(jobs.flatMap((job) => job.data.rows.map((r) => r.row))).toEqual([1, 3]);
      const outcomes = await rig.redis.hgetall(rig.keys.outcomes(run.id));
      expect(decodeOutcome(2, outcomes['2'] ?? '')).toEqual({
        row: 2,
        key: 'DRAFT-2',
        action: 'skipped',
        productId: null,
        status: 'ok',
        error: 'not sold in the source',
      });
      expect((await rig.runs.get(run.id))?.counts).toMatchObject({ 'pair:skipped:ok': 2 });
    });

    it('keeps the key of a row left out as not sold under --missing apart: read, not held by the source', async () => {
      const run = await rig.runs.create(RUN_SPEC);
      const unsold = (row: number) => ({ ...skipped(row), key: `GONE-${row}`, unsold: true as const });
      // An image row of the product of row 3: under its key, which row 3 alone places.
      const itsImage = (row: number) => ({ ...merged(row, 3), key: 'GONE-3', sharesKey: true as const });
      const rows = [upsert, skipped, unsold, itsImage];

      await produce(run.id, countingSource(4, (row) => (rows[row - 1] ?? upsert)(row)).rows());

      expect((await rig.redis.smembers(rig.keys.sourceKeys(run.id))).sort()).toEqual([
        'DRAFT-2',
        upsert(1).key,
      ]);
      expect(await rig.redis.smembers(rig.keys.unsoldKeys(run.id))).toEqual(['GONE-3']);
      expect(decodeOutcome(3, (await rig.redis.hget(rig.keys.outcomes(run.id), '3')) ?? '')).toMatchObject({
        action: 'skipped',
        status: 'ok',
        key: 'GONE-3',
      });
    });
  });

  describe('when every row of the source is invalid', () => {
    it('queues no job from the producer, but one empty chunk from enqueueRun so a worker ends the run', async () => {
      const runOnly = await rig.runs.create(RUN_SPEC);
      expect(await produce(runOnly.id, countingSource(3, invalid).rows())).toEqual({ total: 3, chunks: 0 });
      expect(await queuedJobs()).toEqual([]);

      const deps = enqueueDeps(rig);
      const result = await enqueueRun(deps, RUN_SPEC, countingSource(3, invalid).rows());

      if (result.kind !== 'queued') throw new Error(`expected a queued run, got ${result.kind}`);
      const jobs = await sellerQueueJobs();
      expect(jobs.map((job) => [job.id, job.data])).toEqual([
        [`${result.run.id}-0`, { runId: result.run.id, chunk: 0, rows: [] }],
      ]);
      expect(await rig.runs.get(result.run.id)).toMatchObject({ produced: true, total: 3, settled: 3 });
    });
  });

  describe('when a run is --incremental (its rows mostly send no request)', () => {
    /** The rows of each chunk job enqueueRun queued for the run, in chunk order. */
    async function chunkSizesOf(incremental: boolean): Promise<number[]> {
      const result = await enqueueRun(
        enqueueDeps(rig),
        { ...RUN_SPEC, incremental },
        countingSource(2500).rows(),
      );
      if (result.kind !== 'queued') throw new Error(`expected a queued run, got ${result.kind}`);
      return (await sellerQueueJobs())
        .filter((job) => job.data.runId === result.run.id)
        .sort((a, b) => a.data.chunk - b.data.chunk)
        .map((job) => job.data.rows.length);
    }

    it('queues chunks of up to 1,000 rows, where any other run queues chunks of 100', async () => {
      expect(await chunkSizesOf(true)).toEqual([1000, 1000, 500]);
      expect(await chunkSizesOf(false)).toEqual([...Array(25).fill(100)]);
    });
  });

  describe('when the source breaks half way through', () => {
    // RUN_TTL_SECONDS: a run's data goes after a week. An aborted run is never finished, so nothing
    // else would ever remove what its producer wrote (issue 4: Redis stays flat).
    it('leaves no key of the run without an expiry', async () => {
      let runId = '';
      async function* breaking(): AsyncGenerator<MappedRow> {
        for (let row = 1; row <= 250; row++) yield row % 5 === 0 ? invalid(row) : upsert(row);
        throw new Error('the feed connection was reset at row 251');
      }
      const deps = enqueueDeps(rig);

      await expect(
        enqueueRun(deps, RUN_SPEC, breaking(), {
          onRunCreated: (run) => {
            runId = run.id;
          },
        }),
      ).rejects.toThrow('the feed connection was reset at row 251');

      const runKeys = await rig.redis.keys(`${rig.keys.run(runId)}*`);
      const ttls = await Promise.all(runKeys.map(async (key) => [key, await rig.redis.ttl(key)] as const));
      expect(runKeys.length).toBeGreaterThan(1);
      expect(ttls.filter(([, ttl]) => ttl < 0)).toEqual([]);
    });
  });

  describe('when the same chunks are queued twice (an import retried after a crash)', () => {
    it('stores each chunk once, under a job id made of the run id and the chunk number', async () => {
      const run = await rig.runs.create(RUN_SPEC);

      await produce(run.id, countingSource(25).rows());
      await produce(run.id, countingSource(25).rows());

      const jobs = await queuedJobs();
      expect(jobs.map((job) => job.id)).toEqual([`${run.id}-0`, `${run.id}-1`, `${run.id}-2`]);
      expect(jobs.map((job) => job.data.rows.length)).toEqual([10, 10, 5]);
    });
  });

  describe('when the source hands its rows on without ever waiting (records the parser already holds)', () => {
    it('lets the event loop turn every few rows while a chunk is written, so that its Redis replies are read', async () => {
      const run = await rig.runs.create(RUN_SPEC);
      // Counts turns of the event loop: a callback of the check phase runs only when the loop turns.
      let turns = 0;
      let ticking = true;
      const tick = () => {
        turns++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      // The first chunk's write is held in its first round trip until row 200 is read, so that it is
      // surely under way while rows 101 to 199 are read, however fast Redis answers.
      const firstWrite = gate();
      const slowRedis = holdingPipeline(1, firstWrite.promise);
      const turnsAtRow: number[] = [];
      async function* neverWaiting(): AsyncGenerator<MappedRow> {
        for (let row = 1; row <= 300; row++) {
          turnsAtRow[row] = turns;
          if (row === 200) firstWrite.open();
          yield upsert(row);
        }
      }

      try {
        await produceChunks({
          ...rigOptions(run.id),
          redis: slowRedis,
          rows: neverWaiting(),
          chunkSize: 100,
        });
      } finally {
        ticking = false;
      }

      // Rows 101 to 199 are read while the first chunk is written: never more than 16 without a turn.
      for (let row = 101; row + 16 < 200; row++) {
        expect(turnsAtRow[row + 16], `turns between rows ${row} and ${row + 16}`).toBeGreaterThan(
          turnsAtRow[row] as number,
        );
      }
      expect((await queuedJobs()).map((job) => job.data.rows.length)).toEqual([100, 100, 100]);
    });
  });

  describe('when Redis is slow to add a chunk', () => {
    /** The rig's queue, with `add` of the chunk that holds row 1 replaced by `firstAdd`. */
    const withFirstAdd = (firstAdd: () => Promise<void>, added: number[]) =>
      replacing(rig.queue, 'add', (async (...args: Parameters<typeof rig.queue.add>) => {
        // Known by its rows: its number is the producer's to give.
        if (args[1].rows[0]?.row === 1) await firstAdd();
        const job = await rig.queue.add(...args);
        added.push(args[1].rows[0]?.row ?? 0);
        return job;
      }) as typeof rig.queue.add);
    const keyWritten = async (runId: string, row: number) =>
      (await rig.redis.sismember(rig.keys.sourceKeys(runId), upsert(row).key)) === 1;

    it('writes the next chunk’s keys meanwhile, and adds the chunks in the order they were read', async () => {
      const run = await rig.runs.create(RUN_SPEC);
      const added: number[] = [];
      const firstAdd = gate();

      const produced = produceChunks({
        ...rigOptions(run.id),
        queue: withFirstAdd(() => firstAdd.promise, added),
        rows: countingSource(30).rows(),
        chunkSize: 10,
      });
      try {
        await pollUntil('the second chunk’s keys are written', () => keyWritten(run.id, 11));
        expect(added).toEqual([]);
      } finally {
        firstAdd.open();
      }

      expect(await produced).toEqual({ total: 30, chunks: 3 });
      expect(added).toEqual([1, 11, 21]);
      const jobs = await queuedJobs();
      expect(jobs.map((job) => [job.id, job.data.rows[0]?.row])).toEqual([
        [`${run.id}-0`, 1],
        [`${run.id}-1`, 11],
        [`${run.id}-2`, 21],
      ]);
      expect((await rig.runs.get(run.id))?.total).toBe(30);
    });

    it('fails with the first chunk’s error when the next one fails too while the first is added', async () => {
      const run = await rig.runs.create(RUN_SPEC);
      const added: number[] = [];
      // The second chunk's check (the producer's second pipeline) waits until the run's record is
      // gone, as after a FLUSHALL: it fails while the first chunk is being added, then that add fails.
      const recordGone = gate();
      const redis = holdingPipeline(2, recordGone.promise);
      const refusedAfterRecordGone = async () => {
        await rig.redis.hdel(rig.keys.run(run.id), 'spec');
        recordGone.open();
        await pollUntil('the second chunk’s check is done', () => keyWritten(run.id, 11));
        throw new Error('OOM command not allowed when used memory > maxmemory');
      };

      await expect(
        produceChunks({
          ...rigOptions(run.id),
          redis,
          queue: withFirstAdd(refusedAfterRecordGone, added),
          rows: countingSource(30).rows(),
          chunkSize: 10,
        }),
      ).rejects.toThrow('OOM command not allowed');
      expect(added).toEqual([]);
    });

    it('records nothing of a later chunk once a chunk could not be added, and fails with its error', async () => {
      const run = await rig.runs.create(RUN_SPEC);
      const added: number[] = [];
      // Row 15 is invalid: it settles with the second chunk, which is read while the first is added.
      const source = countingSource(30, (row) => (row === 15 ? invalid(row) : upsert(row)));
      const refusedOnceNextIsUnderWay = async () => {
        await pollUntil('the second chunk’s keys are written', () => keyWritten(run.id, 11));
        throw new Error('OOM command not allowed when used memory > maxmemory');
      };

      await expect(
        produceChunks({
          ...rigOptions(run.id),
          queue: withFirstAdd(refusedOnceNextIsUnderWay, added),
          rows: source.rows(),
          chunkSize: 10,
        }),
      ).rejects.toThrow('OOM command not allowed');

      expect(added).toEqual([]);
      expect(await queuedJobs()).toEqual([]);
      expect(await rig.redis.hexists(rig.keys.outcomes(run.id), '15')).toBe(0);
      // The first chunk's rows were counted read before its add was refused (a run's rows are
      // counted before they are queued: the run's end settles them not sent); the second's are not.
      expect(await rig.runs.get(run.id)).toMatchObject({ total: 10, settled: 0 });
    });
  });
});

describe('the read of `run`, which shares its thread with the run’s first requests', () => {
  const rig = useProducerRig();

  /** A new run's chunks of 10 from `source`, the read held after the first ones as `firstRows` says. */
  async function produceHeld(
    source: ReturnType<typeof countingSource>,
    firstRows: { chunks: number; begun: Promise<unknown>; maxMs: number },
  ) {
    const run = await rig.runs.create(RUN_SPEC);
    const { redis, keys, runs, queue } = rig;
    return produceChunks({
      redis,
      keys,
      runs,
      queue,
      runId: run.id,
      rows: source.rows(),
      chunkSize: 10,
      firstRows,
    });
  }

  it('queues its first chunks, then waits until this process has begun the run’s rows', async () => {
    const source = countingSource(95);
    const begun = gate();
    const producing = produceHeld(source, { chunks: 2, begun: begun.promise, maxMs: 60_000 });
    await pollUntil('two chunks are queued', async () => (await rig.queue.getWaitingCount()) === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The row that completed the second chunk is the last one read.
    expect(source.pulled).toBe(20);
    begun.open();
    expect(await producing).toEqual({ total: 95, chunks: 10 });
    expect(source.pulled).toBe(95);
  });

  it('reads on after maxMs when no row begins (the seller paused, say)', async () => {
    const source = countingSource(45);
    const never = new Promise<void>(() => undefined);
    const result = await produceHeld(source, { chunks: 2, begun: never, maxMs: 20 });
    expect(result).toEqual({ total: 45, chunks: 5 });
  });
});
