import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { stringify } from 'csv-stringify/sync';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHUNK_SIZE, DEFAULT_HIGH_WATER } from '../../../src/defaults.js';
import { sellerQueueName, sellerRef } from '../../../src/sellers/seller-ref.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';
import { eventually, KEY_A, useFailureRig } from './support/rig.js';

// More rows than the queue holds at its high-water mark (200 jobs of 100 rows), with the seller
// paused on its daily limit for the whole test: 3 requests a day, and hour-long days.
const ROWS = DEFAULT_HIGH_WATER * DEFAULT_CHUNK_SIZE + 5_000;
const DAILY_LIMIT = 3;
const DAY_MS = 3_600_000;

/** The most jobs seen waiting in the seller's queue, sampled every 25 ms until stopped. */
function sampleWaitingJobs(queue: Queue) {
  let peak = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, await queue.getJobCountByTypes('wait', 'prioritized', 'delayed'));
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await sampling;
      return peak;
    },
  };
}

// Issue 12: backpressure always. A paused seller used to make the producer ignore the mark and
// queue the whole source (a 1M-row import held 373 MiB and Redis 296 MiB of jobs).
describe(`a ${ROWS}-row source while the seller is paused on its daily limit`, () => {
  const rig = useFailureRig(() => ({ dailyLimit: DAILY_LIMIT, dayLengthMs: DAY_MS }));
  let redis: Redis;
  let queue: Queue;

  beforeEach(() => {
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    queue = new Queue(sellerQueueName(sellerRef(rig.sandbox.baseUrl, KEY_A)), {
      connection: redis,
      prefix: rig.prefix,
    });
  });
  afterEach(async () => {
    await queue.close();
    await redis.quit();
  });

  it('`run --no-wait` queues no more than the mark, exits 4, and the next run of the source ends it and reads anew', {
    timeout: 90_000,
  }, async () => {
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const sampler = sampleWaitingJobs(queue);

    const first = await rig.cli(['run', source, '--no-wait', '--concurrency', '2']);
    const peak = await sampler.stop();

    expect(first.code).toBe(4);
    expect(peak, 'jobs waiting at most').toBeLessThanOrEqual(DEFAULT_HIGH_WATER);
    const read = /Only its first (\d+) rows were read/.exec(first.stderr);
    expect(read, first.stderr).not.toBeNull();
    expect(Number(read?.[1])).toBeLessThan(ROWS);
    const runId = runIdOf(first.stderr);
    const left = await rig.status(runId);
    expect(left.produced).toBe(false);
    expect(left.state).not.toBe('done');

    const second = await rig.cli(['run', source, '--no-wait', '--concurrency', '2']);

    expect(second.code).toBe(4);
    const again = /Run (\S+)'s rows stay queued/.exec(second.stderr)?.[1];
    expect(again).toBeDefined();
    expect(again).not.toBe(runId);
    // The ended run's waiting chunks were taken out: the new run read as far as the mark again.
    expect(second.stderr).toMatch(/Only its first (\d+) rows were read/);
    expect(Number(/Only its first (\d+) rows/.exec(second.stderr)?.[1])).toBeGreaterThanOrEqual(
      (DEFAULT_HIGH_WATER - 1) * DEFAULT_CHUNK_SIZE,
    );
    expect((await rig.status(runId)).state).toBe('done');
    expect(await queue.getJobCountByTypes('wait', 'prioritized', 'delayed')).toBeLessThanOrEqual(
      DEFAULT_HIGH_WATER,
    );
  });

  it('a feed changed since: the next run of its URL, a run of its own, still ends the run left unread', {
    timeout: 90_000,
  }, async () => {
    // Last night's feed, then tonight's (other prices), at the same address.
    let body = stringify(catalogRows(ROWS), { header: true });
    const feed: Server = createServer((_request, response) => response.end(body));
    await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/feed.csv`;
      const first = await rig.cli(['run', url, '--no-wait', '--concurrency', '2']);
      expect(first.code, first.stderr).toBe(4);
      expect(first.stderr).toMatch(/Only its first (\d+) rows were read/);
      const lastNight = runIdOf(first.stderr);
      body = stringify(
        catalogRows(ROWS).map((row) => ({ ...row, price: `${Number(row.price) + 1}` })),
        { header: true },
      );

      const second = await rig.cli(['run', url, '--no-wait', '--concurrency', '2']);

      expect(second.code, second.stderr).toBe(4);
      const tonight = /Run (\S+)'s rows stay queued/.exec(second.stderr)?.[1];
      expect(tonight, second.stderr).toBeDefined();
      expect(tonight).not.toBe(lastNight);
      // Last night's waiting chunks were taken out: tonight's run read as far as the mark again.
      expect(Number(/Only its first (\d+) rows/.exec(second.stderr)?.[1])).toBeGreaterThanOrEqual(
        (DEFAULT_HIGH_WATER - 1) * DEFAULT_CHUNK_SIZE,
      );
      expect(await rig.status(lastNight)).toMatchObject({ state: 'done', produced: false });
    } finally {
      feed.closeAllConnections();
      await new Promise((resolve) => feed.close(resolve));
    }
  });

  it('`import` with no worker holds at the mark and says the seller is paused', {
    timeout: 90_000,
  }, async () => {
    // A few rows to reach the limit: the seller is paused before the big import starts.
    const small = await rig.csv('small.csv', catalogRows(5));
    expect((await rig.cli(['run', small, '--no-wait'])).code).toBe(4);
    const source = await rig.csv('catalog.csv', catalogRows(ROWS));
    const sampler = sampleWaitingJobs(queue);

    const importing = rig.spawn(['import', source], rig.env(KEY_A, { LOG_LEVEL: 'info' }));
    await importing.waitForStderr(/the seller sends nothing \(paused until/);
    // Held there: a second look a while later finds the same count, at the mark.
    const held = await eventually('the producer holds at the mark', async () => {
      const waiting = await queue.getJobCountByTypes('wait', 'prioritized', 'delayed');
      return waiting === DEFAULT_HIGH_WATER ? waiting : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const peak = await sampler.stop();

    expect(held).toBe(DEFAULT_HIGH_WATER);
    expect(peak, 'jobs waiting at most').toBe(DEFAULT_HIGH_WATER);
    const status = await rig.status();
    expect(status.produced).toBe(false);
    expect(status.total).toBeLessThanOrEqual(DEFAULT_HIGH_WATER * DEFAULT_CHUNK_SIZE);
    importing.process.kill('SIGTERM');
    await importing.exited;
  });
});
