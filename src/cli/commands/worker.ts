import { resolve } from 'node:path';
import type { Command } from 'commander';
import { commander } from '../../cjs-packages.js';
import { SLOTS_TICK_MS } from '../../defaults.js';
import { parseDuration, unitlessLine } from '../../duration.js';
import { KEYS_FILE_HELP } from '../../keys-file.js';
import { KeysFileReload } from '../../keys-file-reload.js';
import { parseMetricsPort } from '../../metrics/metrics-server.js';
import { serveScheduledImports } from '../../queue/scheduled-imports/index.js';
import { SellerQueueSlots } from '../../queue/seller-queue-slots.js';
import { DEFAULT_ROTATION } from '../../queue/seller-rotation.js';
import {
  clearKeyChanged,
  keepMarkedServed,
  markKeyChanged,
  markServed,
  servedHolder,
} from '../../queue/served-marks.js';
import type { RedisFaultError, RedisHealth } from '../../redis/health.js';
import type { SellerInfo } from '../../sellers/seller-registry.js';
import { unusableKeyLines } from '../../sellers/servable-sellers.js';
import { readTrustRules } from '../../trust-config.js';
import { closeWithinDeadline } from '../close-deadline.js';
import { DATA_DIR_VARIABLE } from '../job-paths.js';
import { checkJobsFolder, isFolder } from '../jobs-folder.js';
import { watchLostRows } from '../lost-rows-of-fleet.js';
import { parseConcurrency } from '../option-values.js';
import type { CliIo } from '../program.js';
import { withRuntime } from '../runtime.js';
import { makeScheduledImport } from '../scheduled-import.js';
import { untilSignal } from '../signals.js';
import { UsageError } from '../usage-error.js';
import { startSellerWorkers } from '../worker-deps.js';
import { pauseWhileRedisRefuses } from '../worker-redis-pause.js';

export function registerWorker(
  program: Command,
  io: CliIo,
  untilStopped: () => Promise<string> = () => untilSignal(io.signals),
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
    .option(
      '--sellers-at-once <n>',
      'seller queues served at once, each one Redis connection; more sellers with work take turns',
      parseSellersAtOnce,
      DEFAULT_ROTATION.slots,
    )
    .addOption(
      new (commander().Option)(
        '--seller-slice <duration>',
        'how long a seller keeps its queue slot while another seller with work waits for one (e.g. 15s, 1m)',
      )
        .argParser(parseSellerSlice)
        .default(DEFAULT_ROTATION.sliceMs, '15s'),
    )
    .option('--redis-url <url>', 'the Redis of queues and runs (overrides REDIS_URL and REDIS_CLUSTER)')
    .option('--keys-file <file>', `${KEYS_FILE_HELP}; read again when it changes`)
    .option(
      '--jobs <dir>',
      'the folder whose job files scheduled imports read (as given to `schedule --jobs`; never taken from Redis)',
      'jobs',
    )
    .option(
      '--data-dir <dir>',
      `a folder the scheduled job files' paths may name besides the one that holds jobs/ (default: ${DATA_DIR_VARIABLE})`,
    )
    .option(
      '--metrics-port <n>',
      'also serve Prometheus metrics at http://127.0.0.1:N/metrics (0: any free port, printed)',
      parseMetricsPort,
    )
    .option(
      '--allow-insecure',
      "serve runs whose base URL is http:// to a host that is not loopback (the key travels unencrypted; a run's record cannot allow it)",
      false,
    )
    .option(
      '--allow-private-source',
      "let a scheduled job file's feed (and its redirects) or webhook lead to loopback or a private network, or to an address the policy refuses (link-local, metadata, 100.64.0.0/10, IPv6 unique-local); and tell a run's webhook there (a job file cannot allow it)",
      false,
    )
    .option(
      '--allow-eviction',
      'work with a Redis whose maxmemory-policy is not noeviction (an evicted key is a lost row or a duplicate)',
      false,
    )
    .action(
      async (
        flags: {
          concurrency: number;
          sellersAtOnce: number;
          sellerSlice: number;
          redisUrl?: string;
          jobs: string;
          dataDir?: string;
          allowEviction: boolean;
          allowInsecure: boolean;
          allowPrivateSource: boolean;
          metricsPort?: number;
        },
        command: Command,
      ) => {
        // A folder named on the command line is refused as `schedule` refuses it. The default is
        // left alone: a worker that serves imports only (the Docker image) has no jobs/ folder.
        const jobsGiven = command.getOptionValueSource('jobs') === 'cli';
        const jobsDir = jobsGiven ? await checkJobsFolder(flags.jobs, true) : resolve(flags.jobs);
        const options = {
          ...(flags.redisUrl ? { redisUrl: flags.redisUrl } : {}),
          writes: { allowEviction: flags.allowEviction },
          // The webhooks this worker tells get the policy its own command line sets, as `run`'s do.
          allowPrivateSource: flags.allowPrivateSource,
        };
        await withRuntime(io, options, async (runtime) => {
          // Set once the slots exist: a scrape before then lists no seller.
          let servedSellers: () => readonly SellerInfo[] = () => [];
          // Loaded only when asked for: prom-client and the metrics server are ~2 MB of heap that
          // every other command (a 1M-row import among them) would carry for nothing.
          const metrics =
            flags.metricsPort === undefined
              ? null
              : await (await import('../worker-metrics.js')).startWorkerMetrics(
                  io,
                  runtime,
                  flags.metricsPort,
                  () => servedSellers(),
                );
          // A key fixed or added in --keys-file serves without a restart: the file is read again when
          // it changed, before a run's key is read and at each look at the seller queues.
          const keysFile = io.keysFile ? new KeysFileReload(io.env, io.keysFile, runtime.logger) : null;
          const refreshKeys = keysFile ? { refreshKeys: () => keysFile.refresh() } : {};
          const workers = startSellerWorkers(
            runtime,
            io.env,
            flags.concurrency,
            { allowInsecure: flags.allowInsecure },
            {
              ...(metrics ? { onRequestSent: metrics.onRequestSent } : {}),
              ...refreshKeys,
            },
          );
          const stopWatchingRedis = pauseWhileRedisRefuses(runtime, workers);
          // `catalog-sync schedule` registers the schedulers; whichever worker is free runs a firing.
          const scheduled = serveScheduledImports({
            redis: runtime.redis,
            health: runtime.health,
            prefix: runtime.config.prefix,
            logger: runtime.logger,
            runImport: makeScheduledImport(io, runtime, {
              jobsDir,
              ...(flags.dataDir === undefined ? {} : { dataDir: resolve(flags.dataDir) }),
              allowPrivateSource: flags.allowPrivateSource,
            }),
          });
          // This worker in the sellers' served marks: taken back as it stops (served-marks.ts).
          const holder = servedHolder();
          // A few seller queues at a time, those with work whose key this process holds (issue 13).
          const slots = new SellerQueueSlots({
            redis: runtime.commands,
            prefix: runtime.config.prefix,
            registry: runtime.registry,
            workers,
            env: io.env,
            ...refreshKeys,
            ...(keysFile ? { changedKeyNames: () => keysFile.lastChanged } : {}),
            trust: readTrustRules(io.env),
            logger: runtime.logger,
            now: Date.now,
            rotation: { ...DEFAULT_ROTATION, slots: flags.sellersAtOnce, sliceMs: flags.sellerSlice },
            onServable: (added) => {
              const refs = added.map((seller) => seller.ref);
              markServed(runtime.commands, runtime.keys, refs, Date.now(), holder).catch(() => undefined);
              clearKeyChanged(runtime.commands, runtime.keys, refs).catch(() => undefined);
            },
            onKeyChangedUnlinked: (lost) => {
              const refs = lost.map((seller) => seller.ref);
              markKeyChanged(runtime.commands, runtime.keys, refs, Date.now()).catch(() => undefined);
            },
          });
          servedSellers = () => slots.servableSellers;
          await slots.tick();
          slots.start(SLOTS_TICK_MS);
          // No `run` waits on an import's run: the workers end one whose queued chunk Redis lost.
          const lostRows = watchLostRows(runtime, () => slots.servableSellers.map((seller) => seller.ref));
          const stopMarking = keepMarkedServed(
            runtime.commands,
            runtime.keys,
            () => slots.servableSellers.map((seller) => seller.ref),
            Date.now,
            () => slots.keyChangedSellers,
            holder,
          );
          runtime.logger.info(
            {
              sellers: slots.servableSellers.length,
              sellersAtOnce: flags.sellersAtOnce,
              concurrency: flags.concurrency,
              jobs: jobsDir,
            },
            'worker started',
          );
          for (const line of unusableKeyLines(io.env, readTrustRules(io.env))) runtime.logger.warn(line);
          // Said once, not at each firing only: a scheduled import this worker takes has no file.
          if (!jobsGiven && !(await isFolder(jobsDir)))
            runtime.logger.info(
              `no jobs folder at ${jobsDir}: this worker runs no scheduled import (give --jobs DIR)`,
            );
          // Stopped by a signal, or by a permission the Redis user lacks: no job can go on without it.
          const denied = untilDenied(runtime.health);
          const signal = await Promise.race([untilStopped(), denied.met.then((fault) => fault.kind)]);
          denied.stop();
          // Not awaited: sent before the connection's QUIT, it never holds the stop up (Redis gone).
          void stopMarking();
          stopWatchingRedis();
          runtime.logger.info({ signal }, 'stopping: letting the jobs in progress finish');
          // Within the close deadline, as `run` (cli/close-deadline.ts): with Redis gone the slots'
          // look at the queues and the queues' close wait for it for ever; a chunk that cannot
          // finish (its request unanswered) is taken back once its lock runs out.
          await closeWithinDeadline(
            runtime,
            Promise.all([slots.close(), lostRows.close()]).then(() =>
              Promise.all([scheduled.close(), workers.close()]),
            ),
          );
          if (metrics) await closeWithinDeadline(runtime, metrics.close());
          // Said by withRuntime in one line (exit 2); the jobs not done stay queued.
          if (runtime.health.fault?.kind === 'denied') throw runtime.health.fault;
          runtime.logger.info('worker stopped');
        });
      },
    );
}

/** Resolves with the first `denied` fault the runtime meets (health.ts); `stop` stops listening. */
function untilDenied(health: RedisHealth): { met: Promise<RedisFaultError>; stop: () => void } {
  let stop = () => {};
  const met = new Promise<RedisFaultError>((resolve) => {
    const listener = (fault: RedisFaultError) => {
      if (fault.kind === 'denied') resolve(fault);
    };
    stop = health.onFault(listener);
    if (health.fault) listener(health.fault);
  });
  return { met, stop };
}

/** 1 to 64: each queue served at once holds a blocking Redis connection. */
function parseSellersAtOnce(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    throw new UsageError(`--sellers-at-once takes a whole number from 1 to 64, not "${text}"`);
  }
  return value;
}

/** A duration from 100 ms to a day (`15s`, `1m`). */
function parseSellerSlice(text: string): number {
  const unitless = unitlessLine('--seller-slice', text, 's');
  if (unitless) throw new UsageError(unitless);
  const ms = parseDuration(text);
  if (ms === null || ms < 100 || ms > 86_400_000) {
    throw new UsageError(`--seller-slice takes a duration from 100ms to 24h (e.g. 15s, 1m), not "${text}"`);
  }
  return ms;
}
