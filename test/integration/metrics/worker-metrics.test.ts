import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { eventually } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { waitUntilDone } from '../support/cli.js';
import { MAIN_KEY, requestCounts, usePipeline } from '../support/pipeline.js';

/** The value of one sample line (`name{labels} value`) of a Prometheus text, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    const match = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = (match[2] ?? '').split(',');
    if (wanted.every((label) => have.includes(label)) && have.length === wanted.length)
      return Number(match[3]);
  }
  return undefined;
}

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
}

describe('worker --metrics-port', () => {
  const pipeline = usePipeline();

  it('counts the rows this worker settled and the requests it sent, and reads pauses and queued rows from Redis', {
    timeout: 60_000,
  }, async () => {
    const worker = pipeline.spawn(['worker', '--metrics-port', '0']);
    const url = (await worker.waitForStdout(/metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/))[1] as string;

    const first = await pipeline.csv('first.csv', catalogRows(5));
    const runId = (await pipeline.cli(['import', first])).stdout.trim();
    await waitUntilDone(pipeline.cli, runId);
    const changed = catalogRows(5).map((row, i) => (i < 2 ? { ...row, price: '999.00' } : row));
    const second = await pipeline.csv('second.csv', changed);
    const secondId = (await pipeline.cli(['import', second])).stdout.trim();
    await waitUntilDone(pipeline.cli, secondId);

    const sent = requestCounts(pipeline.sandbox.stats());
    const text = await eventually('the second run counted', async () => {
      const body = await scrape(url);
      return sample(body, 'catalog_sync_rows_total', { outcome: 'unchanged', status: 'ok' }) === 3
        ? body
        : undefined;
    });
    expect(sample(text, 'catalog_sync_rows_total', { outcome: 'create', status: 'ok' })).toBe(5);
    expect(sample(text, 'catalog_sync_rows_total', { outcome: 'update', status: 'ok' })).toBe(2);
    expect(sample(text, 'catalog_sync_requests_total', { method: 'POST', status: '201' })).toBe(sent.creates);
    expect(sent.creates).toBe(5);
    expect(sample(text, 'catalog_sync_requests_total', { method: 'PUT', status: '200' })).toBe(2);
    expect(sample(text, 'catalog_sync_requests_total', { method: 'GET', status: '200' })).toBe(sent.lists);
    const refs = [
      ...text.matchAll(/catalog_sync_seller_paused\{seller="([0-9a-f]+)",reason="daily-limit"\} 0/g),
    ];
    expect(refs).toHaveLength(1);
    const ref = refs[0]?.[1] as string;
    expect(sample(text, 'catalog_sync_seller_paused', { seller: ref, reason: 'key-rejected' })).toBe(0);
    expect(sample(text, 'catalog_sync_queue_rows', { seller: ref, state: 'waiting' })).toBe(0);
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain(MAIN_KEY);
  });

  it('shows a rejected key as a paused seller, and the rows still queued', { timeout: 60_000 }, async () => {
    const worker = pipeline.spawn(['worker', '--metrics-port', '0'], { SELLER_API_KEY: 'sk_rejected' });
    const url = (await worker.waitForStdout(/metrics at (http:\/\/\S+)/))[1] as string;

    const source = await pipeline.csv('catalog.csv', catalogRows(30));
    expect((await pipeline.cli(['import', source], { SELLER_API_KEY: 'sk_rejected' })).code).toBe(0);

    // The chunk that met the 401 is active for a moment after the pause is marked, and a scrape reads
    // one state after the other: one taken as the job moves back reads it in neither. Wait until it
    // is back in the queue.
    const text = await eventually('the seller paused on its key, its rows back in the queue', async () => {
      const body = await scrape(url);
      const paused = /catalog_sync_seller_paused\{seller="\w+",reason="key-rejected"\} 1/.test(body);
      const waiting = /catalog_sync_queue_rows\{seller="\w+",state="waiting"\} (\d+)/.exec(body)?.[1];
      return paused && waiting === '30' ? body : undefined;
    });
    const ref = /catalog_sync_seller_paused\{seller="(\w+)",reason="key-rejected"\} 1/.exec(
      text,
    )?.[1] as string;
    expect(sample(text, 'catalog_sync_queue_rows', { seller: ref, state: 'active' })).toBe(0);
    expect(sample(text, 'catalog_sync_requests_total', { method: 'GET', status: '401' })).toBe(1);
  });

  it('a bad --metrics-port, or one in use, is one line and exit 2', async () => {
    const bad = await pipeline.cli(['worker', '--metrics-port', 'http']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'catalog-sync: --metrics-port takes a port number from 0 to 65535, not "http"',
    );

    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const inUse = await pipeline.cli(['worker', '--metrics-port', String(port)]);
      expect(inUse.code).toBe(2);
      expect(inUse.stderr.trim()).toBe(
        `catalog-sync: --metrics-port: ${port} is already in use on 127.0.0.1`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
