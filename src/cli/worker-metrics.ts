import { startMetricsServer } from '../metrics/metrics-server.js';
import { QueueRows } from '../metrics/queue-rows.js';
import { WorkerMetrics } from '../metrics/worker-metrics.js';
import type { RequestEvent } from '../seller-api/index.js';
import type { SellerInfo } from '../sellers/seller-registry.js';
import type { CliIo } from './program.js';
import type { Runtime } from './runtime.js';

export interface WorkerMetricsHandle {
  onRequestSent: (event: RequestEvent) => void;
  close(): Promise<void>;
}

/**
 * `worker --metrics-port N`: counts what this worker settles and sends, reads the pauses and queued
 * rows of the sellers it serves from Redis at each scrape, and serves them on 127.0.0.1. Says where
 * on stdout (port 0 picks one). With them, Redis as this worker met it (health.ts): a scrape tells
 * why the worker takes no job.
 */
export async function startWorkerMetrics(
  io: CliIo,
  runtime: Runtime,
  port: number,
  servedSellers: () => readonly SellerInfo[],
): Promise<WorkerMetricsHandle> {
  const queueRows = new QueueRows(runtime.redis, runtime.config.prefix);
  const metrics = new WorkerMetrics(
    async () => {
      const snapshots = [];
      // The sellers this worker serves (whose key it holds), not every seller Redis lists: whoever
      // writes to Redis could list thousands, each a series and a queue read at every scrape.
      for (const seller of servedSellers()) {
        // The reset time does not matter here: only the pause and the rejected key are read.
        const status = await runtime.sellers.status(seller.ref, '00:00');
        snapshots.push({
          ref: seller.ref,
          pausedOnLimit: status.pausedUntil !== null,
          keyRejected: status.authRejected,
          unreachable: Boolean(status.unreachable),
          queueRows: await queueRows.rows(seller.queueName),
        });
      }
      return snapshots;
    },
    { redisFault: () => runtime.health.fault?.kind ?? null },
  );
  let server: Awaited<ReturnType<typeof startMetricsServer>>;
  try {
    server = await startMetricsServer(metrics, port, runtime.logger);
  } catch (error) {
    await queueRows.close();
    throw error;
  }
  runtime.runs.onSettled = (outcomes) => metrics.rowsSettled(outcomes);
  io.stdout.write(`metrics at ${server.url}\n`);
  return {
    onRequestSent: (event) => metrics.requestSent(event),
    async close() {
      runtime.runs.onSettled = null;
      await server.close();
      await queueRows.close();
    },
  };
}
