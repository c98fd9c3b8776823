import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/logger.js';
import { queueApproval } from '../../../src/queue/approval.js';
import { SellerWorkers, type SellerWorkersOptions } from '../../../src/queue/seller-workers.js';
import type { ChunkJobData } from '../../../src/runs/chunk-job.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { catalogRows, priceNumber } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { until } from '../support/until.js';
import { testWorkerDeps } from '../support/worker-deps.js';

/** Each approval sends 8 PUTs in one chunk: two turns of the worker's four requests at once. */
const SENT = 8;
const IN_FLIGHT = 4;
/** A short job lock, so that the first worker's runs out within the test. */
const LOCK_MS = 600;

/** A promise and its resolve: a gate for the requests the sandbox holds. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

type Kind = 'approve' | 'deactivate';

/**
 * The chunks an approval queues (a held run's approved rows, its held `--missing` deactivations),
 * run by a worker whose lock ran out while it still ran them (its event loop blocked, Redis out of its
 * reach past the lock: here its renewal stopped), and another worker that takes the chunk over. As a
 * run's write chunks (lost-lock.test.ts): each PUT is a request of the seller's day, sent once but
 * for those in flight as the chunk is taken over, and then the holder's outcome is the one recorded.
 */
describe.each<Kind>(['approve', 'deactivate'])(
  'when a worker loses its lock on an approval’s %s chunk',
  (kind) => {
    let puts = 0;
    let first = gate();
    let next = gate();
    const pipeline = usePipeline({
      // The first worker's PUTs wait for `first`, every later one for `next`.
      hold: (request) => {
        if (request.method !== 'PUT') return undefined;
        puts += 1;
        return puts <= IN_FLIGHT ? first.opened : next.opened;
      },
    });
    let keys: RedisKeys;
    let redis: Redis;
    let runs: RunStore;
    let connections: Redis[];
    let workers: SellerWorkers[];
    let queue: Queue<ChunkJobData> | undefined;

    beforeEach(() => {
      puts = 0;
      first = gate();
      next = gate();
      keys = new RedisKeys(pipeline.prefix);
      redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      runs = new RunStore(redis, keys);
      connections = [redis];
      workers = [];
      queue = undefined;
    });
    // Before the pipeline's own (hooks after a test run last-registered first): its prefix goes then.
    afterEach(async () => {
      // A test that failed half way leaves requests held: answered, the workers can close.
      first.open();
      next.open();
      await Promise.all(workers.map((process) => process.close()));
      await queue?.close();
      await Promise.all(connections.map((connection) => connection.quit()));
    });

    /** One worker process: its own Redis connection, run contexts, limiter and chunk attempts. */
    function workerProcess(options: Omit<SellerWorkersOptions, 'prefix'>, lines: string[] = []) {
      const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
      connections.push(connection);
      const env = { SELLER_API_KEY: MAIN_KEY, CATALOG_SYNC_API_HOSTS: '127.0.0.1' };
      const log = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const deps = { ...testWorkerDeps(connection, keys, env), logger: createLogger('info', log) };
      const process = new SellerWorkers(deps, {
        prefix: pipeline.prefix,
        lockDurationMs: LOCK_MS,
        ...options,
      });
      workers.push(process);
      return process;
    }

    /** A run held with 8 writes of this kind to approve: 8 repriced rows, or 8 products gone (`--missing`). */
    async function heldRun(): Promise<string> {
      const feed = catalogRows(kind === 'approve' ? SENT : 20).map((row) => ({ ...row, stock_level: '5' }));
      expect((await pipeline.cli(['run', await pipeline.csv('first.csv', feed)])).code).toBe(0);
      const held =
        kind === 'approve'
          ? await pipeline.cli([
              'run',
              await pipeline.csv(
                'repriced.csv',
                feed.map((row) => ({ ...row, price: (priceNumber(row.price) + 1.25).toFixed(2) })),
              ),
              '--max-updates',
              '1',
            ])
          : // 8 of 20 products gone (40%, more than --max-missing's default 20%).
            await pipeline.cli([
              'run',
              await pipeline.csv('kept.csv', feed.slice(0, 20 - SENT)),
              '--missing',
              'stock_level=0',
            ]);
      expect(held.code, held.stderr).toBe(5);
      return runIdOf(held.stdout);
    }

    /** Approves the held run (its chunk queued, as `approve` does), and serves the seller's queue with A. */
    async function approvedTakenByA(runId: string, lines: string[]) {
      const run = await runs.get(runId);
      if (!run) throw new Error(`no run ${runId}`);
      await queueApproval({ redis, keys, runs, prefix: pipeline.prefix }, run, null);
      const seller = {
        ref: run.sellerRef,
        baseUrl: pipeline.sandbox.baseUrl,
        queueName: keys.sellerQueue(run.sellerRef),
      };
      queue = new Queue<ChunkJobData>(seller.queueName, { connection: redis, prefix: pipeline.prefix });
      // A takes the chunk, and its lock is never renewed. Its stall check may put the chunk back once
      // the lock ran out; paused then, A takes no job, and B does.
      const a = workerProcess({ chunksAtOnce: 1, lockRenewMs: 60_000 }, lines);
      a.serve(seller);
      await until('A’s first requests in flight', () => puts === IN_FLIGHT);
      const [job] = await queue.getActive();
      const lockKey = `${pipeline.prefix}:${seller.queueName}:${job?.id}:lock`;
      await until('A’s lock run out', async () => (await redis.exists(lockKey)) === 0);
      await a.pause();
      return { seller, lockKey };
    }

    /** The writes of this kind still to send: held rows in an approval, or deactivations due. */
    async function unsent(runId: string): Promise<number> {
      if (kind === 'deactivate') return redis.hlen(keys.deactivations(runId));
      return (await runs.get(runId))?.counts['pair:update:held'] ?? 0;
    }

    /**
     * The run ended done, each write of this kind settled ok once; its requests are those it made
     * before the approval (`before`) and every one served since, said exact.
     */
    async function expectExactEnd(runId: string, before: number): Promise<void> {
      await until('the run done', async () => (await runs.get(runId))?.state === 'done');
      const counts =
        kind === 'approve'
          ? { 'pair:update:held': 0, 'pair:update:ok': SENT }
          : { 'pair:deactivate:held': 0, 'pair:deactivate:ok': SENT };
      expect((await runs.get(runId))?.counts).toMatchObject(counts);
      expect(await unsent(runId)).toBe(0);
      const okLines = [];
      for await (const outcome of runs.outcomes(runId))
        if (outcome.action === (kind === 'approve' ? 'update' : 'deactivate')) okLines.push(outcome.status);
      expect(okLines).toEqual(Array(SENT).fill('ok'));
      // No process died: A, once it found its lock lost, added what it had counted.
      const served = before + pipeline.sandbox.requests().length;
      await until('A’s counts added', async () => (await runs.get(runId))?.requests === served);
      await until(
        'the counts said exact again',
        async () => !(await runs.get(runId))?.requestsAtLeast,
        3_000,
      );
    }

    /** PUTs the sandbox served, by product id. */
    function putsByProduct(): Map<string, number> {
      const sent = new Map<string, number>();
      for (const put of pipeline.sandbox.requests().filter((request) => request.method === 'PUT'))
        sent.set(String(put.query.id), (sent.get(String(put.query.id)) ?? 0) + 1);
      return sent;
    }

    it('its requests in flight answered before the chunk is taken, it sends nothing more; the taker sends each write left once', {
      timeout: 30_000,
    }, async () => {
      const runId = await heldRun();
      const before = (await runs.get(runId))?.requests ?? 0;
      pipeline.sandbox.resetStats();
      const { seller, lockKey } = await approvedTakenByA(runId, []);
      // A's requests in flight are answered: their writes settle (nobody else holds the chunk yet).
      first.open();
      await until('A’s writes in flight settled', async () => (await unsent(runId)) === SENT - IN_FLIGHT);

      // The chunk is handed out again (by A's stall check or B's), to B; the PUTs after A's wait for that.
      const b = workerProcess({ stalledIntervalMs: 100 });
      b.serve(seller);
      await until('B holds the chunk', async () => (await redis.exists(lockKey)) === 1);
      next.open();

      await expectExactEnd(runId, before);
      expect(
        [...putsByProduct().values()].filter((count) => count > 1),
        'products sent more than once',
      ).toEqual([]);
      expect(putsByProduct().size).toBe(SENT);
    });

    it('its requests in flight answered once the taker holds the chunk and sent them again, it settles none: the taker’s outcome is recorded', {
      timeout: 30_000,
    }, async () => {
      const runId = await heldRun();
      const before = (await runs.get(runId))?.requests ?? 0;
      pipeline.sandbox.resetStats();
      const lines: string[] = [];
      const { seller } = await approvedTakenByA(runId, lines);

      // B takes the chunk while A's requests are still in flight: it sends those writes too.
      const b = workerProcess({ stalledIntervalMs: 100 });
      b.serve(seller);
      await until('B’s first requests in flight', () => puts === 2 * IN_FLIGHT);
      // A's are answered now: its attempt ends, its rows not settled: the chunk is B's.
      first.open();
      await until('A’s attempt ended', () => lines.some((line) => line.includes('its job lock ran out')));
      expect(await unsent(runId), 'writes settled by A once B held the chunk').toBe(SENT);

      next.open();
      await expectExactEnd(runId, before);
      // The writes in flight as the chunk was taken were sent by both; the others once.
      expect([...putsByProduct().values()].sort()).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    });
  },
);
