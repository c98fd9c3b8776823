import type { Command } from 'commander';
import { DashboardData } from '../../dashboard/data.js';
import { QueueCounter } from '../../dashboard/queue-counts.js';
import { type DashboardServer, startDashboard } from '../../dashboard/server.js';
import { DEFAULT_DASHBOARD_PORT } from '../../defaults.js';
import { isLoopbackHost } from '../../sandbox/index.js';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { untilSignal } from '../signals.js';
import { UsageError } from '../usage-error.js';

interface DashboardFlags {
  port?: string;
  host?: string;
  redisUrl?: string;
}

export function registerDashboard(
  program: Command,
  io: CliIo,
  untilStopped: () => Promise<string> = () => untilSignal(io.signals),
): void {
  program
    .command('dashboard')
    .description('the queues and runs in a browser (read-only, on loopback), until SIGINT or SIGTERM')
    .option('--port <n>', `port to listen on; 0 takes any free port (default ${DEFAULT_DASHBOARD_PORT})`)
    .option('--host <host>', 'loopback address to listen on: 127.0.0.1, ::1 or localhost (default 127.0.0.1)')
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)')
    .action(async (flags: DashboardFlags) => {
      const port = flags.port === undefined ? DEFAULT_DASHBOARD_PORT : parsePort(flags.port);
      const host = flags.host ?? '127.0.0.1';
      // No authentication: the data (sellers, sources, counts) is for this machine's users only.
      if (!isLoopbackHost(host))
        throw new UsageError(
          `--host: ${host} is not loopback; the dashboard serves 127.0.0.1, ::1 or localhost only`,
        );
      await withRuntime(io, flags.redisUrl ? { redisUrl: flags.redisUrl } : {}, async (runtime) => {
        const queues = new QueueCounter(runtime.redis, runtime.config.prefix);
        const source = new DashboardData({
          redis: runtime.redis,
          keys: runtime.keys,
          runs: runtime.runs,
          sellers: runtime.sellers,
          registry: runtime.registry,
          queues,
          producingBeatMs: runtime.producingBeatMs,
        });
        try {
          const dashboard = await listen(
            () => startDashboard({ source, host, port, logger: runtime.logger }),
            {
              host,
              port,
            },
          );
          io.stdout.write(`dashboard at ${dashboard.url}\n`);
          const signal = await untilStopped();
          runtime.logger.info({ signal }, 'dashboard stopping');
          await dashboard.close();
        } finally {
          await queues.close();
        }
      });
    });
}

function parsePort(text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 65_535))
    throw new UsageError(`--port: ${text} is not an integer from 0 to 65535`);
  return value;
}

async function listen(
  start: () => Promise<DashboardServer>,
  at: { host: string; port: number },
): Promise<DashboardServer> {
  try {
    return await start();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--port: ${at.port} is already in use; try --port 0`);
    if (code === 'EADDRNOTAVAIL') throw new UsageError(`--host: ${at.host} is not available on this machine`);
    throw error;
  }
}
