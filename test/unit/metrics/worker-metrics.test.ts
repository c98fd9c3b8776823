import { describe, expect, it } from 'vitest';
import { type SellerSnapshot, WorkerMetrics } from '../../../src/metrics/worker-metrics.js';
import type { RedisFaultKind } from '../../../src/redis/health.js';

const SELLER: SellerSnapshot = {
  ref: 'abc123',
  pausedOnLimit: false,
  keyRejected: true,
  queueRows: { waiting: 7, active: 0, delayed: 0 },
};

/** A read that does not settle until `answer` is called: a Redis that does not answer. */
function heldRead() {
  let answer: (sellers: SellerSnapshot[]) => void = () => undefined;
  let reads = 0;
  const read = () => {
    reads += 1;
    return new Promise<SellerSnapshot[]>((resolve) => {
      answer = resolve;
    });
  };
  return { read, answer: (sellers: SellerSnapshot[]) => answer(sellers), reads: () => reads };
}

function metricsWith(read: () => Promise<SellerSnapshot[]>, fault: RedisFaultKind | null = null) {
  const metrics = new WorkerMetrics(read, { readMs: 20, redisFault: () => fault });
  metrics.rowsSettled([{ action: 'create', status: 'ok' }]);
  metrics.requestSent({ method: 'POST', status: 201 });
  return metrics;
}

function expectCountersAndProcess(text: string): void {
  expect(text).toMatch(/^catalog_sync_rows_total\{outcome="create",status="ok"\} 1$/m);
  expect(text).toMatch(/^catalog_sync_requests_total\{method="POST",status="201"\} 1$/m);
  expect(text).toContain('process_cpu_user_seconds_total');
}

describe('WorkerMetrics when Redis cannot be read', () => {
  it('reads Redis: redis_up 1 and the seller gauges', async () => {
    const text = await metricsWith(async () => [SELLER]).text();
    expect(text).toMatch(/^catalog_sync_redis_up 1$/m);
    expect(text).toMatch(/^catalog_sync_queue_rows\{seller="abc123",state="waiting"\} 7$/m);
    expect(text).toMatch(/^catalog_sync_seller_paused\{seller="abc123",reason="key-rejected"\} 1$/m);
    expectCountersAndProcess(text);
  });

  it('a read that does not answer in time: redis_up 0, the counters, no seller gauge', async () => {
    const held = heldRead();
    const text = await metricsWith(held.read).text();
    expect(text).toMatch(/^catalog_sync_redis_up 0$/m);
    expect(text).not.toMatch(/^catalog_sync_(queue_rows|seller_paused)\{/m);
    expectCountersAndProcess(text);
  });

  it('a read that fails: redis_up 0, the counters, no seller gauge', async () => {
    const text = await metricsWith(() => Promise.reject(new Error('CLUSTERDOWN The cluster is down'))).text();
    expect(text).toMatch(/^catalog_sync_redis_up 0$/m);
    expect(text).not.toMatch(/^catalog_sync_(queue_rows|seller_paused)\{/m);
    expectCountersAndProcess(text);
  });

  it('scrapes while a read is still unanswered wait for that read, not another: no pile-up of reads', async () => {
    const held = heldRead();
    const metrics = metricsWith(held.read);
    await metrics.text();
    await metrics.text();
    expect(held.reads()).toBe(1);
    held.answer([SELLER]);
    const text = await metrics.text();
    expect(text).toMatch(/^catalog_sync_redis_up 1$/m);
    expect(text).toMatch(/^catalog_sync_queue_rows\{seller="abc123",state="waiting"\} 7$/m);
  });

  it("says the worker's own view of Redis: the fault that stopped it taking jobs", async () => {
    const text = await metricsWith(() => Promise.reject(new Error('down')), 'unanswered').text();
    expect(text).toMatch(/^catalog_sync_redis_fault\{kind="unanswered"\} 1$/m);
    expect(text).toMatch(/^catalog_sync_redis_fault\{kind="full"\} 0$/m);
    const healthy = await metricsWith(async () => [SELLER]).text();
    expect(healthy).toMatch(/^catalog_sync_redis_fault\{kind="unanswered"\} 0$/m);
  });
});
