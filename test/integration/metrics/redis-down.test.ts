import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { waitUntilDone } from '../support/cli.js';
import { freePort, OwnRedis } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';

/** GET the metrics, given up well before Prometheus's default 10 s scrape timeout would. */
async function scrape(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(9_000) });
  return { status: response.status, text: await response.text() };
}

/** The value of the sample `name` (a line `name value` or `name{labels} value`), or undefined. */
function value(text: string, line: RegExp): number | undefined {
  const match = line.exec(text);
  return match ? Number(match[1]) : undefined;
}

const REDIS_UP = /^catalog_sync_redis_up (\S+)$/m;
const ROWS_CREATED = /^catalog_sync_rows_total\{outcome="create",status="ok"\} (\S+)$/m;
const QUEUE_ROWS = /^catalog_sync_queue_rows\{/m;
const SELLER_PAUSED = /^catalog_sync_seller_paused\{/m;

/**
 * A scrape while Redis does not answer (a single Redis frozen; a Redis Cluster down is the same to
 * the scrape): it took as long as Redis's commands waited, then answered 503 without the counters.
 * Now it answers at once with what the process knows, says Redis is down, and leaves out the gauges
 * it could not read.
 */
describe('worker --metrics-port while Redis does not answer', () => {
  const pipeline = usePipeline();
  let redis: OwnRedis;
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-metrics-redis-'));
    redis = new OwnRedis(await freePort(), dir, { persistence: false });
    await redis.start();
  });
  afterEach(async () => {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers 200 while Redis is paused: redis_up 0, the counters, no Redis gauge; all back once it answers', {
    timeout: 90_000,
  }, async () => {
    const env = { REDIS_URL: redis.url };
    const worker = pipeline.spawn(['worker', '--metrics-port', '0'], env);
    const url = (await worker.waitForStdout(/metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/))[1] as string;
    const source = await pipeline.csv('catalog.csv', catalogRows(4));
    const runId = (await pipeline.cli(['import', source], env)).stdout.trim();
    await waitUntilDone((args) => pipeline.cli(args, env), runId);
    const before = await eventually('the rows counted', async () => {
      const { text } = await scrape(url);
      return value(text, ROWS_CREATED) === 4 ? text : undefined;
    });
    expect(value(before, REDIS_UP)).toBe(1);
    expect(before).toMatch(QUEUE_ROWS);

    redis.pause();
    let paused: { status: number; text: string };
    try {
      paused = await scrape(url);
    } finally {
      // Asserted after the resume: a failed assertion must not leave the server frozen.
      redis.resume();
    }
    // The scrape was answered while Redis was still frozen (it is resumed only now).
    expect(paused.status).toBe(200);
    expect(value(paused.text, REDIS_UP)).toBe(0);
    expect(value(paused.text, ROWS_CREATED)).toBe(4);
    expect(paused.text).toContain('process_cpu_user_seconds_total');
    // Left out, not reported as 0: an empty queue and an unread one must not look alike.
    expect(paused.text).not.toMatch(QUEUE_ROWS);
    expect(paused.text).not.toMatch(SELLER_PAUSED);

    const after = await eventually('Redis read again', async () => {
      const { text } = await scrape(url);
      return value(text, REDIS_UP) === 1 ? text : undefined;
    });
    expect(after).toMatch(/^catalog_sync_queue_rows\{seller="\w+",state="waiting"\} 0$/m);
    expect(after).toMatch(/^catalog_sync_seller_paused\{seller="\w+",reason="key-rejected"\} 0$/m);
    expect(value(after, ROWS_CREATED)).toBe(4);
  });
});
