import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { type CommonConfig, readCommonConfig, readLogFormat } from '../config.js';
import { DEFAULT_PROBE_BACKOFF } from '../defaults.js';
import { createLogger, type Logger } from '../logger.js';
import { RunNotifier } from '../notify/notifier.js';
import { projectRoot } from '../project-root.js';
import {
  connectRedis,
  describeConnectFailure,
  displayRedisUrl,
  RedisUnavailableError,
  type RedisUrlContext,
} from '../redis/connect.js';
import { connectCluster, nodeOptions } from '../redis/connect-cluster.js';
import { faultOf, RedisHealth } from '../redis/health.js';
import { infoRefused, infoRefusedLine } from '../redis/info-access.js';
import { routeUnneededPasswordWarning, unneededPasswordLine } from '../redis/password-warning.js';
import {
  hasRedisServerBinary,
  type PrivateRedis,
  redisAnswers,
  startPrivateRedis,
} from '../redis/private-server.js';
import { type RedisServerInfo, readServerInfo, unfitForWrites } from '../redis/server-info.js';
import { closeRedis, RedisLostError } from '../redis/watch.js';
import { RedisKeys } from '../runs/keys.js';
import { RunStore } from '../runs/run-store.js';
import { SellerRegistry } from '../sellers/seller-registry.js';
import { SellerState } from '../sellers/seller-state.js';
import { readWebhookHosts } from '../trust-config.js';
import type { CliIo } from './program.js';
import { redisFaultLine } from './redis-room.js';
import type { BeforeRun } from './signals.js';
import { UsageError } from './usage-error.js';

/** What a command that touches Redis holds, and how to let it all go. */
export interface Runtime {
  config: CommonConfig;
  /** BullMQ's connection (queues, workers) and the commands that go with them. */
  redis: Redis;
  /**
   * The tool's own commands (run store, seller state, claims, id map, index): a second connection
   * to the same Redis. BullMQ defines its ~64 scripts on the client it is given, and ioredis copies
   * them into every MULTI and pipeline of that client (~70 µs each, ~10 µs on a plain one).
   */
  commands: Redis;
  keys: RedisKeys;
  runs: RunStore;
  sellers: SellerState;
  /** Which sellers exist and which keys serve them (seller-registry.ts). */
  registry: SellerRegistry;
  logger: Logger;
  /** The refused writes (full, read-only) and lost runs met so far (health.ts). */
  health: RedisHealth;
  /** Tells a run's `--notify` webhook of its end, hold and pauses (one POST per event). */
  notifier: RunNotifier;
  /** How often a source's reader renews its mark (config: CATALOG_SYNC_PRODUCING_BEAT_MS; MarkDeps). */
  producingBeatMs: number;
  /** INFO as read now (memory used, maxmemory, policy, role); null when the server does not tell. */
  serverInfo(): Promise<RedisServerInfo | null>;
  /** Closes Redis and stops a private Redis if one was started. */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  redisUrl?: string;
  /** `npm start` and `run --sandbox`: a throwaway Redis when none answers (README, The two commands). */
  privateRedisAllowed?: boolean;
  /** Quieter logs while a progress bar owns the terminal. */
  logLevel?: string;
  /**
   * For the commands that write (run, import, worker): refuse a replica, an evicting Redis (unless
   * allowed) and a version BullMQ cannot use, before anything is written.
   */
  writes?: { allowEviction: boolean };
  /** `--notify` given on this command line (run, import): its host is trusted, as the operator typed it. */
  notify?: string;
  /** `--allow-private-source` on this command line: webhooks too may reach what the address policy refuses. */
  allowPrivateSource?: boolean;
  /**
   * `run` and `import`: connecting (seconds, to a Redis that does not answer) is given up at once on
   * an interrupt before the run exists (withRuntime); the connections made after it are closed.
   */
  before?: BeforeRun;
}

export async function openRuntime(io: CliIo, options: RuntimeOptions = {}): Promise<Runtime> {
  const config = readCommonConfig(io.env, options.redisUrl ? { redisUrl: options.redisUrl } : {});
  const webhookHosts = readWebhookHosts(io.env, options.notify ? [options.notify] : []);
  const { format, colorize } = readLogFormat(io.env, io.stderr);
  const logger = createLogger(options.logLevel ?? config.logLevel, io.stderr, format, colorize);
  let privateRedis: PrivateRedis | null = null;
  if (options.privateRedisAllowed && !config.redisUrlGiven && !(await redisAnswers(config.redisUrl))) {
    if (hasRedisServerBinary()) {
      privateRedis = await startPrivateRedis();
      config.redisUrl = privateRedis.url;
      logger.info({ redis: privateRedis.url }, 'no Redis answered: started a private one for this run');
    }
  }
  // A password the Redis does not need: said once, as a log line, not by ioredis per connection.
  const unroute = /\/\/[^/@]*:[^/@]+@/.test(config.redisUrl)
    ? routeUnneededPasswordWarning(() =>
        logger.warn(
          unneededPasswordLine(
            displayRedisUrl(config.redisUrl),
            config.redisCluster ? 'REDIS_CLUSTER' : (config.redisUrlFrom ?? 'REDIS_URL'),
          ),
        ),
      )
    : () => {};
  let redis: Redis;
  let commands: Redis;
  try {
    const cluster = config.redisCluster;
    const connect = (connectionName?: string) => {
      const named = connectionName ? { connectionName } : {};
      // A command on a cluster is retried through a failover as long as `run` waits for a Redis that
      // stopped answering (CATALOG_SYNC_REDIS_DEADLINE_MS).
      return cluster
        ? connectCluster(cluster, { ...named, rideOutMs: config.redisDeadlineMs })
        : connectRedis(config.redisUrl, named);
    };
    redis = await connect();
    commands = await connect('catalog-sync-commands').catch(async (error: unknown) => {
      await closeRedis(redis);
      throw error;
    });
  } catch (error) {
    unroute();
    await privateRedis?.stop();
    if (error instanceof RedisUnavailableError)
      throw new UsageError(
        describeConnectFailure(config.redisUrl, error.cause, {
          ...redisUrlContext(config),
          ...(error.asked ? { asked: error.asked } : {}),
        }),
      );
    throw error;
  }
  const info = await readServerInfo(redis);
  if (!info && options.writes && infoRefused(redis))
    logger.info(infoRefusedLine(displayRedisUrl(config.redisUrl)));
  const unfit = info && options.writes ? unfitForWrites(config.redisUrl, info, options.writes) : null;
  if (unfit) {
    await Promise.all([closeRedis(redis), closeRedis(commands)]);
    await privateRedis?.stop();
    unroute();
    throw new UsageError(unfit);
  }
  if (info && info.policy !== 'noeviction') {
    // Checked above in our own words; BullMQ would print its "IMPORTANT! Eviction policy…" warning
    // to the console again for every queue and worker it sets up. `skipVersionCheck` is BullMQ's
    // connection option that spares that INFO read (and so the warning); it reads it from the
    // options of the client it is given, and of the duplicates it makes for blocking reads.
    nodeOptions(redis).skipVersionCheck = true;
  }
  const health = new RedisHealth();
  // A refused write (full, read-only) is seen on whichever connection meets it first.
  health.watch(redis);
  health.watch(commands);
  const keys = new RedisKeys(config.prefix, { cluster: config.redisCluster !== null });
  const sellers = new SellerState(commands, keys, Date.now, {
    firstMs: config.probeFirstMs,
    maxMs: Math.max(config.probeFirstMs, DEFAULT_PROBE_BACKOFF.maxMs),
  });
  const runs = new RunStore(commands, keys);
  return {
    config,
    redis,
    commands,
    keys,
    runs,
    sellers,
    registry: new SellerRegistry(commands, keys),
    logger,
    health,
    producingBeatMs: config.producingBeatMs,
    // The webhook's retries wait as long as a failed API request's first backoff (a test seam too).
    notifier: new RunNotifier({
      redis: commands,
      keys,
      logger,
      webhookHosts,
      delivery: {
        backoffMs: config.retryBaseMs,
        ...(io.network ? { network: io.network } : {}),
        allowPrivateAddresses: options.allowPrivateSource === true,
      },
    }),
    serverInfo: () => readServerInfo(redis),
    async close() {
      // The request numbers reserved and not used go back, so the day's count stays exact.
      // The run's requests counted and not yet added too. Not to a cluster found out of reach: each
      // would wait out another failover's retries.
      if (commands.status === 'ready' && health.fault?.kind !== 'unanswered')
        await Promise.all([sellers.quota.giveBackAll(), runs.flushRequestCounts()]).catch(() => undefined);
      await Promise.all([closeRedis(redis), closeRedis(commands)]);
      await privateRedis?.stop();
      unroute();
    },
  };
}

/** Runs `body` with a runtime and always closes it. */
export async function withRuntime<T>(
  io: CliIo,
  options: RuntimeOptions,
  body: (runtime: Runtime) => Promise<T>,
): Promise<T> {
  const { before } = options;
  const runtime = before
    ? await before.during(() => openRuntime(io, options), { abandon: (late) => late.close() })
    : await openRuntime(io, options);
  try {
    return await body(runtime);
  } catch (error) {
    if (error instanceof RedisLostError) throw new UsageError(error.message);
    // Any command that met a refused write (full, read-only) or a lost run: one line, not a stack.
    const fault = faultOf(error) === null ? null : runtime.health.note(error);
    if (fault) throw new UsageError(await redisFaultLine(runtime, fault, null));
    throw error;
  } finally {
    await runtime.close();
  }
}

/**
 * Where the Redis URL came from, and the checkout's docker-compose.yml if this copy has one: a copy
 * installed from npm lacks it (package.json "files"), so its hint does not name it.
 */
function redisUrlContext(config: CommonConfig): RedisUrlContext {
  const root = projectRoot();
  return {
    prefix: config.prefix,
    ...(config.redisUrlFrom ? { from: config.redisUrlFrom } : {}),
    ...(existsSync(join(root, 'docker-compose.yml')) ? { composeFolder: root } : {}),
  };
}
