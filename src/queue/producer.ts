import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  CHUNK_WRITES_AT_ONCE,
  DEFAULT_CHUNK_SIZE,
  PRODUCER_KEEP_EVERY_MS,
  ROWS_BETWEEN_TURNS,
  RUN_TTL_SECONDS,
  SETTLED_BY_PRODUCER_AT_ONCE,
} from '../defaults.js';
import type { MappedRow, ProductUpsert, RowOutcome } from '../interfaces.js';
import { RunStateLostError } from '../redis/health.js';
import { addChunk, type ChunkJobData, packSources } from '../runs/chunk-job.js';
import { KeylessTally } from '../runs/keyless-rows.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import type { RowSource, SourceRows } from '../runs/source-rows.js';
import { highWaterOf } from './chunking.js';
import { type FirstRows, untilFirstRows } from './first-rows.js';
import { type ReadStops, RunInterruptedError, waitForRoom } from './producer-stops.js';
import { QueueRoom } from './queue-room.js';
import { settledAtOnce } from './settled-at-once.js';
import { unsentOutcome, watchSource } from './source-failure.js';

/** What a producer reads, where it queues it, and what stops it (ReadStops). */
export interface ProduceOptions extends ReadStops {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  queue: Queue<ChunkJobData>;
  runId: string;
  rows: AsyncIterable<MappedRow>;
  /**
   * Rows per job: a million-row catalog is ten thousand jobs (docs/architecture.md, decision 2);
   * chunking.ts says how many for a run.
   */
  chunkSize?: number;
  /**
   * Jobs waiting in the seller's queue above which reading the source pauses (decision 6); by
   * default as many chunks of `chunkSize` as hold the rows the Redis sizing allows (chunking.ts).
   */
  highWater?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The rows' raw values: carried in the chunk jobs, kept by rows that fail (`report --failed-only`). */
  sourceRows?: SourceRows;
  /** A worker of this process starts the run: the read waits for its first rows (first-rows.ts). */
  firstRows?: FirstRows;
  /** The waiting jobs the mark counts (queue-room.ts); every waiting job of `queue` when absent. */
  waitingAhead?: () => Promise<number>;
  /**
   * When the source breaks, the rows read since the last chunk are settled with this (not sent),
   * so that the run's total and its report hold every row read; without it they are not recorded.
   */
  unsentReason?: string;
}

/** The rows one flush lets go, and what they leave to record, written while the next are read. */
interface ReadBatch {
  rows: ProductUpsert[];
  sources: Pick<ChunkJobData, 'sources' | 'parentSources'>;
  settled: RowOutcome[];
  settledSources: Map<number, RowSource>;
  sourceKeys: string[];
  /** Keys of rows left out as not sold, with `--missing` (SkippedRow.unsold): read, not held. */
  unsoldKeys: string[];
  /** The source header when it changed (a JSON source's grows as keys appear), else null. */
  header: string[] | null;
  /** The rows with no key read so far, when this batch read any (KeylessTally), else null. */
  keyless: Record<string, string> | null;
  last: boolean;
  totalNow: number;
}

/**
 * Streams mapped rows into chunk jobs. Invalid, merged and skipped rows settle here at once (they
 * need no request); the rest go to the seller's queue with deterministic job ids, so that a chunk added twice
 * is stored once. Resolves to the number of source rows read.
 */
export async function produceChunks(options: ProduceOptions): Promise<{ total: number; chunks: number }> {
  const { redis, keys, runs, queue, runId } = options;
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const highWater = options.highWater ?? highWaterOf(chunkSize);
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  let total = 0;
  /** Rows read and recorded (queued or settled): what a run left unread holds. */
  let recorded = 0;
  let chunks = 0;
  let upserts: ProductUpsert[] = [];
  let upsertSources: (RowSource | null)[] = [];
  let settledHere: RowOutcome[] = [];
  let settledSources = new Map<number, RowSource>();
  let sourceKeys: string[] = [];
  let unsoldKeys: string[] = [];
  const keyless = new KeylessTally();
  let chunksQueued = 0;

  /**
   * Where a row's key goes: held by the source, or read but not held (a row left out as not sold,
   * under `--missing`), or nowhere (a row under another row's key: that row's place decides).
   */
  const keysOf = (mapped: MappedRow): string[] | null => {
    if (mapped.kind === 'skipped' && mapped.unsold) return unsoldKeys;
    if ((mapped.kind === 'skipped' || mapped.kind === 'merged') && mapped.sharesKey) return null;
    return sourceKeys;
  };

  const room = new QueueRoom(queue, highWater, options.waitingAhead);
  let keptAt = Number.NEGATIVE_INFINITY;

  /**
   * The flushes' writes still under way while the next rows are read, oldest first: at most
   * CHUNK_WRITES_AT_ONCE. Each is awaited by a later flush or the end of the read.
   */
  const inFlight: Promise<void>[] = [];
  /** Writes not done yet: while any is, the read gives the event loop its turns. */
  let writesUnderWay = 0;
  let writeFailed = false;
  const finishWriting = async () => {
    // All of them settle first, so that none is left running; the oldest failure is the one thrown.
    const pending = inFlight.splice(0);
    const results = await Promise.allSettled(pending);
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  };

  /**
   * Lets the rows read so far go once the queue has room (reading stops at the mark with this chunk
   * in hand), then writes them while the next rows are read: the round trips overlap the parsing
   * instead of adding to it (issue 12). Two chunks may be written at once: a chunk's keys and the
   * check that its run exists go out while the chunk before it is being added, but the rest (its
   * settles, its job, the run's total) follows the chunk before it, in the order read (writeBatch).
   * A failure (the run gone) stops the read at the next flush, with the rows since unrecorded.
   */
  const flush = async () => {
    // A write that failed stops the read here, before another chunk's keys go out.
    if (writeFailed) await finishWriting();
    while (inFlight.length >= CHUNK_WRITES_AT_ONCE) await inFlight.shift();
    const batch = {
      rows: upserts,
      sources: packSources(upsertSources),
      settled: settledHere,
      settledSources,
      sourceKeys,
      unsoldKeys,
      // The header before any row that is aligned to it (a JSON source's header grows as keys appear).
      header: options.sourceRows?.headerChange() ?? null,
      keyless: keyless.take(),
      last: upserts.length < chunkSize && settledHere.length < SETTLED_BY_PRODUCER_AT_ONCE,
      totalNow: total,
    };
    if (batch.rows.length > 0) {
      // Near the mark, the chunks under way are added first, so that the look at the queue is exact.
      if (room.nearMark(inFlight.length)) await finishWriting();
      await waitForRoom(room, sleep, options, recorded);
    }
    upserts = [];
    upsertSources = [];
    settledHere = [];
    settledSources = new Map();
    sourceKeys = [];
    unsoldKeys = [];
    writesUnderWay++;
    const write = writeBatch(batch, inFlight.at(-1) ?? null).finally(() => {
      writesUnderWay--;
    });
    inFlight.push(write);
    // Awaited by a later flush or the end of the read; a failure meanwhile is not unhandled.
    write.catch(() => {
      writeFailed = true;
    });
  };

  /** `before`: the write of the chunk read before this one; this chunk is added once it is done. */
  const writeBatch = async (batch: ReadBatch, before: Promise<void> | null) => {
    // One round trip for the chunk's keys and the check that the run still exists (a run whose
    // record vanished, Redis restarted without persistence or flushed, cannot end), where a
    // command each took one apiece. Each set is given the run's lifetime as it is written, so
    // that even a run found gone leaves nothing behind for good.
    const ids = batch.rows.map((u) => u.id).filter((id): id is string => id !== undefined);
    const step = redis.pipeline().hexists(keys.run(runId), 'spec');
    if (batch.sourceKeys.length > 0) {
      step.sadd(keys.sourceKeys(runId), ...batch.sourceKeys).expire(keys.sourceKeys(runId), RUN_TTL_SECONDS);
    }
    if (batch.unsoldKeys.length > 0) {
      step.sadd(keys.unsoldKeys(runId), ...batch.unsoldKeys).expire(keys.unsoldKeys(runId), RUN_TTL_SECONDS);
    }
    if (ids.length > 0) step.sadd(keys.touched(runId), ...ids).expire(keys.touched(runId), RUN_TTL_SECONDS);
    try {
      const [exists] = (await step.exec()) ?? [];
      if (exists?.[0]) throw exists[0];
      if (exists?.[1] !== 1) throw new RunStateLostError(runId);
    } catch (error) {
      // A failure of the chunk before this one came first: it is the one thrown.
      await before;
      throw error;
    }
    // The rest in the order read, once the chunk before is written: nothing is recorded after a
    // chunk before it failed; chunk numbers, the run's total and what is recorded only ever grow.
    await before;
    if (batch.header) await runs.setSourceHeader(runId, batch.header, options.sourceRows?.delimiter ?? ',');
    // The batch's rows are counted read before any of them is settled or queued: a process killed
    // in between leaves rows counted that nothing holds (the run's early end or `cancel` settles
    // them: unsent-rows.ts, cancel-run.ts), never a row settled, or sent, that the run's total and
    // its report leave out (`1400 settled of 1300 read`). After the check that the run exists: a
    // run gone gets no record of it. The rows with no key read so far go in the same write.
    await redis.hset(keys.run(runId), { ...batch.keyless, total: batch.totalNow });
    if (batch.settled.length > 0) await runs.settle(runId, batch.settled, batch.settledSources);
    await writeChunk(batch.rows, batch.sources, batch.totalNow, batch.last);
  };

  const writeChunk = async (
    rows: ProductUpsert[],
    sources: Pick<ChunkJobData, 'sources' | 'parentSources'>,
    totalNow: number,
    last: boolean,
  ) => {
    if (rows.length > 0) {
      const chunk = chunks;
      room.added();
      await addChunk(queue, { runId, chunk, rows, ...sources });
      chunks++;
    }
    recorded = totalNow;
    // The run's other keys (a worker's outcomes, the list read's products) get the run's lifetime
    // every few seconds rather than with every chunk: thirteen EXPIREs per 100 rows were most of
    // the producer's Redis commands. The last flush always renews them.
    const now = Date.now();
    if (now - keptAt >= PRODUCER_KEEP_EVERY_MS || last) {
      keptAt = now;
      await runs.keepFor(runId);
    }
  };

  const source = watchSource(options.rows);
  try {
    for await (const mapped of source.rows) {
      if (options.signal?.aborted) throw new RunInterruptedError();
      options.assertHealthy?.();
      total++;
      if (writesUnderWay > 0 && total % ROWS_BETWEEN_TURNS === 0) await nextTurn();
      // A key the row keeps but that cannot be trusted (1.23457E+08) is held too: a product may bear it.
      if (mapped.key) keysOf(mapped)?.push(mapped.key);
      // An invalid row with no key, or none to trust, may stand for any product `--missing` finds
      // gone (keyless-rows.ts). One with every cell blank stands for none: it is skipped (blank-record.ts).
      if (mapped.kind === 'invalid' && (!mapped.key || mapped.keyUntrusted))
        keyless.add(mapped.row, mapped.keyUntrusted ? mapped.key : undefined);
      // The product the row had before its SKU is still held by the source (with `--missing`):
      // a write that fails, or a row refused, leaves it be rather than deactivated.
      if (mapped.kind !== 'merged' && mapped.formerKey) keysOf(mapped)?.push(mapped.formerKey);
      // So is the product an earlier version made under the row's key as Excel text (`="00123"`)
      // until the row's write gives it the clean key. Not for a row whose id column names its
      // product: that product's key is checked against the source's (id-row-facts.ts).
      if (
        mapped.kind !== 'merged' &&
        mapped.excelKey &&
        (mapped.kind !== 'upsert' || mapped.id === undefined)
      )
        keysOf(mapped)?.push(mapped.excelKey);
      const values = options.sourceRows?.take(mapped.row) ?? null;
      if (mapped.kind === 'upsert') {
        upserts.push(mapped);
        upsertSources.push(values);
      } else {
        settledHere.push(settledAtOnce(mapped));
        if (values) settledSources.set(mapped.row, values);
      }
      if (upserts.length >= chunkSize || settledHere.length >= SETTLED_BY_PRODUCER_AT_ONCE) {
        const queues = upserts.length > 0;
        await flush();
        if (queues && ++chunksQueued === options.firstRows?.chunks) await untilFirstRows(options.firstRows);
      }
    }
    // A source closed because of an interrupt ends like a finished one: it must not count as read whole.
    if (options.signal?.aborted) throw new RunInterruptedError();
    await flush();
    await finishWriting();
  } catch (error) {
    // The chunks still being written end first; a failure of theirs came first, so it is the one thrown.
    await finishWriting();
    // Interrupted: the read stops between chunks, every chunk it let go written whole, the rows read
    // since not recorded (a source closed because of the interrupt is not a source that broke).
    if (options.signal?.aborted) throw new RunInterruptedError(recorded);
    if (source.failed() && options.unsentReason !== undefined) {
      // The rows read since the last chunk are rows read all the same: recorded, none sent.
      for (const [i, upsert] of upserts.entries()) {
        settledHere.push(unsentOutcome(upsert, options.unsentReason));
        const values = upsertSources[i];
        if (values) settledSources.set(upsert.row, values);
      }
      upserts = [];
      upsertSources = [];
      // The source's error is the one thrown, whatever becomes of this last record.
      await flush()
        .then(finishWriting)
        .catch(() => undefined);
    }
    throw error;
  }
  return { total, chunks };
}
