import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueOptions } from '../../../src/queue/queue-options.js';
import { type ChunkJobData, chunkJobId } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { type Gate, gate } from '../../support/gate.js';
import { type CatalogRow, catalogRows, parseCsv } from '../support/catalog.js';
import type { CliResult } from '../support/cli.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { eventually, useFailureRig } from './support/rig.js';

/** Two chunks of 100 rows and one of 50 (DEFAULT_CHUNK_SIZE). */
const ROWS = 250;
/** A short job lock, so that a run left idle is looked at within the test (lock + stall check). */
const LOCK_MS = 1500;
/** What a row whose queued chunk Redis lost is reported with. */
/** The steps before the loss happen in a moment: waited for up to this (only a guard against a hang). */
const SETUP = { timeoutMs: 30_000 };
const LOST = /^not sent: its queued chunk was lost from Redis \(.*\); a re-run of the source sends it$/;

/**
 * A chunk job that Redis loses (a Cluster master failover that dropped writes not yet replicated,
 * a partial FLUSHDB): no settle recorded its rows and nothing holds them. `run` must not wait for
 * them for ever (a cron job at 2 a.m.): once the run has been idle a stall check's time, its rows
 * held by nothing are settled failed, not sent, saying why, and the run ends.
 */
describe('a run whose queued chunk Redis lost', () => {
  /** What a write waits for before the sandbox serves it; none waits unless a test says so. */
  let writes: () => Promise<unknown> | undefined;
  let held = 0;
  const rig = useFailureRig(() => ({
    hold: (request) => {
      if (request.method === 'GET') return undefined;
      held++;
      return writes();
    },
  }));
  let redis: Redis;
  let keys: RedisKeys;
  let runs: RunStore;
  const feeds: Server[] = [];
  beforeEach(() => {
    writes = () => undefined;
    held = 0;
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(rig.prefix);
    runs = new RunStore(redis, keys);
  });
  afterEach(async () => {
    for (const feed of feeds.splice(0)) {
      feed.closeAllConnections();
      await new Promise((resolve) => feed.close(resolve));
    }
    await redis.quit();
  });

  const env = () => rig.env(undefined, { CATALOG_SYNC_LOCK_MS: String(LOCK_MS) });

  /** The only run under the prefix, once it exists. */
  async function theRun(): Promise<string> {
    return eventually('the run to exist', async () => (await runs.latestId()) ?? undefined, SETUP);
  }

  function sellerQueue(runId: string): Promise<Queue<ChunkJobData>> {
    return runs.get(runId).then((run) => {
      if (!run) throw new Error(`no run ${runId}`);
      return new Queue<ChunkJobData>(keys.sellerQueue(run.sellerRef), queueOptions(redis, rig.prefix));
    });
  }

  /** The report's lines of rows (not `missing` ones), by row number. */
  async function reportRows(path: string): Promise<Map<number, Record<string, string>>> {
    const lines = parseCsv(await readFile(path, 'utf8')).filter((line) => line.row !== '');
    return new Map(lines.map((line) => [Number(line.row), line]));
  }

  it('ends once idle: the lost chunk’s rows failed, not sent, in the report; the others written; exit 1', {
    timeout: 60_000,
  }, async () => {
    const writesGate = gate();
    writes = () => writesGate.promise;
    const report = join(rig.dir, 'report.csv');
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    // Two chunks at once (chunksAtOnceFor): the third waits while their writes are held.
    const running = rig.cli(['run', source, '--concurrency', '8', '--report', report], env());
    const runId = await theRun();
    const queue = await sellerQueue(runId);
    let result: CliResult;
    try {
      // Every chunk queued, the first one's writes held: the last chunk waits in the queue.
      await eventually(
        'the run read to its end',
        async () => ((await runs.get(runId))?.produced ? true : undefined),
        SETUP,
      );
      await eventually('a write held', () => (held > 0 ? true : undefined), SETUP);
      const lastChunk = chunkJobId(runId, 2);
      expect(await queue.getJobState(lastChunk)).toBe('waiting');
      // Redis loses it (BullMQ's own removal: the job, its data and its place in the queue).
      expect(await queue.remove(lastChunk)).toBe(1);
      writesGate.open();
      result = await running;
    } finally {
      writesGate.open();
      await queue.close();
    }

    expect(result.code, result.stderr).toBe(1);
    const status = await rig.status(runId);
    expect(status).toMatchObject({ state: 'done', total: ROWS, settled: ROWS });
    expect(status.counts).toMatchObject({ created: 200, failed: 50 });
    const lines = await reportRows(report);
    expect(lines.size).toBe(ROWS);
    for (let row = 1; row <= ROWS; row++) {
      const line = lines.get(row);
      if (row <= 200) expect(line, `row ${row}`).toMatchObject({ action: 'create', status: 'ok' });
      else {
        expect(line, `row ${row}`).toMatchObject({ action: 'skipped', status: 'failed' });
        expect(line?.error).toMatch(LOST);
      }
    }
    expect(rig.sandbox.products('seller-a')).toHaveLength(200);
  });

  /**
   * A feed of the rows' CSV: the first `firstRows` rows at once, then, once `rest` opens, its
   * connection broken (the source breaks half way). Resolves to its URL.
   */
  async function breakingFeed(rows: CatalogRow[], firstRows: number, rest: Gate): Promise<string> {
    // Rows long enough that the first ones pass the 64 KiB a source's start is sniffed with.
    const description = 'd'.repeat(600);
    const body = [
      'sku,name,price,description',
      ...rows.map((row) => `${row.sku},${row.name.replace(/[",]/g, ' ')},${row.price},${description}`),
    ]
      .join('\n')
      .concat('\n');
    const cut = body.indexOf(`\n${rows[firstRows]?.sku},`) + 1;
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(body.slice(0, cut));
      rest.promise.then(() => res.destroy());
    });
    feeds.push(server);
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/export.csv`;
  }

  /**
   * Redis loses the chunk under way: its job, its lock and its place among the active ones. Resolves,
   * once it is lost, to when its worker's next request looks at its lock (past the half lock it may
   * send without a look: chunk-hold.ts): that look finds the lock gone, and it sends no more of the
   * chunk's rows.
   */
  async function loseActiveChunk(runId: string, queue: Queue<ChunkJobData>, jobId: string): Promise<number> {
    const processedOn = (await queue.getJob(jobId))?.processedOn ?? Date.now();
    const base = `${rig.prefix}:${keys.sellerQueue((await runs.get(runId))?.sellerRef ?? '')}`;
    await redis
      .multi()
      .lrem(`${base}:active`, 0, jobId)
      .del(`${base}:${jobId}`, `${base}:${jobId}:lock`)
      .exec();
    return processedOn + LOCK_MS;
  }

  it('ends a run ending early whose chunk under way was then lost: not left "ending early" for good', {
    timeout: 60_000,
  }, async () => {
    const rest = gate();
    const writesGate = gate();
    writes = () => writesGate.promise;
    const url = await breakingFeed(catalogRows(ROWS), 150, rest);
    const running = rig.cli(['run', url, '--concurrency', '1'], env());
    const runId = await theRun();
    const queue = await sellerQueue(runId);
    const first = chunkJobId(runId, 0);
    let result: CliResult;
    try {
      // The first chunk (rows 1-100) under way, its first write held; then the source breaks.
      await eventually('a write held', () => (held > 0 ? true : undefined), SETUP);
      expect(await queue.getJobState(first)).toBe('active');
      rest.open();
      await eventually(
        'the run ending early',
        async () => ((await runs.get(runId))?.endingEarly !== undefined ? true : undefined),
        SETUP,
      );
      await sleep(Math.max(0, (await loseActiveChunk(runId, queue, first)) - Date.now()));
      writesGate.open();
      result = await running;
    } finally {
      rest.open();
      writesGate.open();
      await queue.close();
    }

    await expectEndedEarlyWithChunkLost(runId, result);
  });

  /**
   * The run ended early (exit 2) with every row read settled: row 1, whose create was in flight as
   * its chunk was lost, went and says so; the rest of the lost chunk never went and says its chunk
   * was lost; the rows read after it say the source broke before their turn.
   */
  async function expectEndedEarlyWithChunkLost(runId: string, result: CliResult): Promise<void> {
    expect(result.code, result.stderr).toBe(2);
    const run = await runs.get(runId);
    // The rows read before the break (the reader may keep the last of them back, unread).
    const total = run?.total ?? 0;
    expect(total).toBeGreaterThan(100);
    expect(run).toMatchObject({ state: 'done', aborted: true, settled: total });
    const outcomes = new Map<number, { action: string; status: string; error: string }>();
    for await (const outcome of runs.outcomes(runId)) outcomes.set(outcome.row ?? 0, outcome);
    expect(rig.sandbox.products('seller-a')).toHaveLength(1);
    expect(outcomes.get(1)).toMatchObject({ action: 'create', status: 'ok' });
    for (let row = 2; row <= 100; row++) {
      expect(outcomes.get(row), `row ${row}`).toMatchObject({ status: 'failed' });
      expect(outcomes.get(row)?.error).toMatch(LOST);
    }
    for (let row = 101; row <= total; row++)
      expect(outcomes.get(row)?.error, `row ${row}`).toBe(
        'not sent: the source broke before its turn (run it again)',
      );
  }

  // The same loss a moment earlier, before the source breaks (or as its run is ended early): the
  // rows a live reader counted are all queued or settled, so none held by no job is "before its
  // turn"; their chunk was under way, its worker may still be sending (row 1's create is in flight).
  it('a chunk under way lost before the source breaks: its row in flight is reported as sent, the rest as lost', {
    timeout: 60_000,
  }, async () => {
    const rest = gate();
    const writesGate = gate();
    writes = () => writesGate.promise;
    const url = await breakingFeed(catalogRows(ROWS), 150, rest);
    const running = rig.cli(['run', url, '--concurrency', '1'], env());
    const runId = await theRun();
    const queue = await sellerQueue(runId);
    const first = chunkJobId(runId, 0);
    let result: CliResult;
    try {
      await eventually('a write held', () => (held > 0 ? true : undefined), SETUP);
      expect(await queue.getJobState(first)).toBe('active');
      const workerLooks = await loseActiveChunk(runId, queue, first);
      // The source breaks while row 1's create is still in flight.
      rest.open();
      await eventually(
        'the run ending early',
        async () => ((await runs.get(runId))?.endingEarly !== undefined ? true : undefined),
        SETUP,
      );
      await sleep(Math.max(0, workerLooks - Date.now()));
      writesGate.open();
      result = await running;
    } finally {
      rest.open();
      writesGate.open();
      await queue.close();
    }
    await expectEndedEarlyWithChunkLost(runId, result);
  });
});
