import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../src/runs/keys.js';
import { eventually } from '../integration/failures/support/rig.js';
import { catalogRows } from '../integration/support/catalog.js';
import { waitUntilDone } from '../integration/support/cli.js';
import { usePipeline } from '../integration/support/pipeline.js';
import { TEST_REDIS_URL } from '../integration/support/redis-prefix.js';

/**
 * Issue 32, item 9: the metrics endpoint answered any Host header (the dashboard answers 421), and
 * took its seller labels from Redis unbounded: 5,000 forged sellers gave 30,010 series. Now a
 * foreign Host is answered 421 and the labels are the sellers this worker serves (holds a key for).
 */
const FORGED = 5000;

/** GET `url` with `host` as its Host header: status and body. */
function get(url: string, host?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: host ? { host } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The distinct `seller` labels of a Prometheus text. */
function sellerLabels(text: string): Set<string> {
  return new Set([...text.matchAll(/\{[^}]*seller="([^"]*)"/g)].map((match) => match[1] as string));
}

describe('worker --metrics-port, against what Redis and other hosts may send', () => {
  const pipeline = usePipeline();

  it('answers 421 to a request naming another host, as the dashboard does', async () => {
    const worker = pipeline.spawn(['worker', '--metrics-port', '0']);
    const url = (await worker.waitForStdout(/metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/))[1] as string;
    const port = new URL(url).port;

    expect((await get(url, `rebound.attacker.example:${port}`)).status).toBe(421);
    expect((await get(url, 'rebound.attacker.example')).status).toBe(421);
    const own = await get(url);
    expect(own.status).toBe(200);
    expect(own.text).toContain('catalog_sync_rows_total');
    expect((await get(url, `localhost:${port}`)).status).toBe(200);
  });

  it(`labels only the sellers this worker serves, whatever ${FORGED} forged sellers Redis lists`, {
    timeout: 60_000,
  }, async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    const runId = (await pipeline.cli(['import', source])).stdout.trim();
    const keys = new RedisKeys(pipeline.prefix);
    const redis = new Redis(TEST_REDIS_URL);
    try {
      const batch = redis.pipeline();
      for (let i = 0; i < FORGED; i++) {
        const ref = randomBytes(8).toString('hex');
        batch.hset(keys.seller(ref), { baseUrl: pipeline.sandbox.baseUrl, queueName: `forged-${i}` });
        batch.sadd(keys.sellers, ref);
      }
      await batch.exec();
    } finally {
      await redis.quit();
    }
    const worker = pipeline.spawn(['worker', '--metrics-port', '0']);
    const url = (await worker.waitForStdout(/metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/))[1] as string;
    await waitUntilDone(pipeline.cli, runId);

    const text = await eventually('the served seller in the metrics', async () => {
      const { text } = await get(url);
      return sellerLabels(text).size > 0 ? text : undefined;
    });

    expect(sellerLabels(text).size).toBe(1);
    const series = text.split('\n').filter((line) => /^catalog_sync_(seller_paused|queue_rows)\{/.test(line));
    expect(series).toHaveLength(6);
  });
});
