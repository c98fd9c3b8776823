import { describe, expect, it } from 'vitest';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { eventually } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { waitUntilDone } from '../support/cli.js';
import { killMasterOf } from '../support/cluster-failover.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { clusterUnsupported, useTestCluster } from '../support/redis-cluster.js';

const unsupported = clusterUnsupported();
const skipped = unsupported ? `: skipped, ${unsupported}` : '';

/** GET the metrics, given up well before Prometheus's default 10 s scrape timeout would. */
async function scrape(url: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(9_000) });
  return { status: response.status, text: await response.text() };
}

/**
 * The prober's case: a cluster whose master of the seller's slot is gone, no replica taking over
 * (`cluster_state:fail`). A scrape waited as long as a command is retried through a failover, then
 * answered 503 without the counters. Now it answers in time with them, and says why the worker waits.
 */
describe.skipIf(unsupported !== null)(`worker --metrics-port, a Redis Cluster down${skipped}`, () => {
  // No replica: the killed master's slots stay unserved.
  const holder = useTestCluster({}, { nodeTimeoutMs: 1000 });
  const pipeline = usePipeline();

  it('answers 200 with the counters and redis_up 0, then says the cluster did not answer', {
    timeout: 90_000,
  }, async () => {
    const env = {
      REDIS_CLUSTER: holder.cluster.nodes,
      REDIS_URL: 'redis://127.0.0.1:1',
      // Longer than a scrape waits for Redis, shorter than the 20 s default: the test's patience.
      CATALOG_SYNC_REDIS_DEADLINE_MS: '6000',
      CATALOG_SYNC_CLOSE_DEADLINE_MS: '1000',
    };
    const worker = pipeline.spawn(['worker', '--metrics-port', '0'], env);
    const url = (await worker.waitForStdout(/metrics at (http:\/\/127\.0\.0\.1:\d+\/metrics)/))[1] as string;
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    const runId = (await pipeline.cli(['import', source], env)).stdout.trim();
    await waitUntilDone((args) => pipeline.cli(args, env), runId);
    await eventually('the rows counted, the queue read', async () => {
      const { text } = await scrape(url);
      return /^catalog_sync_queue_rows\{seller="\w+",state="waiting"\} 0$/m.test(text) ? text : undefined;
    });

    await killMasterOf(holder.cluster, `{${sellerRef(pipeline.sandbox.baseUrl, MAIN_KEY)}}`);
    const down = await scrape(url);
    expect(down.status).toBe(200);
    expect(down.text).toMatch(/^catalog_sync_redis_up 0$/m);
    expect(down.text).toMatch(/^catalog_sync_rows_total\{outcome="create",status="ok"\} 3$/m);
    expect(down.text).toContain('process_cpu_user_seconds_total');
    expect(down.text).not.toMatch(/^catalog_sync_queue_rows\{/m);

    // Once a command's retries are used up, the worker's own view: it takes no job for it.
    const told = await eventually(
      'the worker to find the cluster unanswered',
      async () => {
        const { status, text } = await scrape(url);
        return status === 200 && /^catalog_sync_redis_fault\{kind="unanswered"\} 1$/m.test(text)
          ? text
          : undefined;
      },
      { timeoutMs: 40_000 },
    );
    expect(told).toMatch(/^catalog_sync_redis_up 0$/m);
  });
});
