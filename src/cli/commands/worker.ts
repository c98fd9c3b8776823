import { resolve } from 'node:path';
import type { Command } from 'commander';
import { parseConcurrency } from '../../config.js';
import { parseMetricsPort } from '../../metrics/metrics-server.js';
import { serveScheduledImports } from '../../queue/scheduled-imports/index.js';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { makeScheduledImport } from '../scheduled-import.js';
import { untilSignal } from '../signals.js';
import { startSellerWorkers } from '../worker-deps.js';
import { startWorkerMetrics } from '../worker-metrics.js';
import { pauseWhileRedisRefuses } from '../worker-redis-pause.js';

const REGISTRY_POLL_MS = 2000;

export function registerWorker(
  program: Command,
  io: CliIo,
  untilStopped: () => Promise<string> = untilSignal,
): void {
  program
    .command('worker')
    .description('long-running consumer of all runs; stops gracefully on SIGTERM/SIGINT, losing nothing')
    .option(
      '--concurrency <n>',
      'requests in flight to the Seller API at once, for this process',
      parseConcurrency,
      8,
    )
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)')
    .option(
      '--jobs <dir>',
      'the folder whose job files scheduled imports read (as given to `schedule --jobs`; never taken from Redis)',
      'jobs',
    )
    .option(
      '--metrics-port <n>',
      'also serve Prometheus metrics at http://127.0.0.1:N/metrics (0: any free port, printed)',
      parseMetricsPort,
    )
    .option(
      '--allow-eviction',
      'work with a Redis whose maxmemory-policy is not noeviction (an evicted key is a lost row or a duplicate)',
      false,
    )
    .action(
      async (flags: {
        concurrency: number;
        redisUrl?: string;
        jobs: string;
        allowEviction: boolean;
        metricsPort?: number;
      }) => {
        const jobsDir = resolve(flags.jobs);
        const options = {
          ...(flags.redisUrl ? { redisUrl: flags.redisUrl } : {}),
          writes: { allowEviction: flags.allowEviction },
        };
        await withRuntime(io, options, async (runtime) => {
          const metrics =
            flags.metricsPort === undefined ? null : await startWorkerMetrics(io, runtime, flags.metricsPort);
          const workers = startSellerWorkers(
            runtime,
            io.env,
            flags.concurrency,
            [],
            metrics ? { onRequestSent: metrics.onRequestSent } : {},
          );
          const stopWatchingRedis = pauseWhileRedisRefuses(runtime, workers);
          // `catalog-sync schedule` registers the schedulers; whichever worker is free runs a firing.
          const scheduled = serveScheduledImports({
            redis: runtime.redis,
            prefix: runtime.config.prefix,
            logger: runtime.logger,
            runImport: makeScheduledImport(io, runtime, jobsDir),
          });
          // Sellers appear when `import` registers them: look for new ones now and then.
          const serveRegistered = async () => {
            for (const seller of await runtime.sellers.registered()) workers.serve(seller);
          };
          await serveRegistered();
          const poll = setInterval(() => {
            serveRegistered().catch((error: unknown) =>
              runtime.logger.warn({ err: String(error) }, 'registry read failed'),
            );
          }, REGISTRY_POLL_MS);
          runtime.logger.info(
            { queues: workers.size, concurrency: flags.concurrency, jobs: jobsDir },
            'worker started',
          );
          const signal = await untilStopped();
          clearInterval(poll);
          stopWatchingRedis();
          runtime.logger.info({ signal }, 'stopping: letting the jobs in progress finish');
          await scheduled.close();
          await workers.close();
          await metrics?.close();
          runtime.logger.info('worker stopped');
        });
      },
    );
}
