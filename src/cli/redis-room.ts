import type { Redis } from 'ioredis';
import { countOf } from '../count-words.js';
import type { Logger } from '../logger.js';
import { displayRedisUrl } from '../redis/connect.js';
import type { RedisFaultError } from '../redis/health.js';
import { permissionRefusalLine } from '../redis/permission-refusal.js';
import { redisUserOf } from '../redis/redis-url.js';
import { describeMemory, formatBytes, type RedisServerInfo, roomLeft } from '../redis/server-info.js';
import { KEPT_BYTES_PER_ROW, QUEUED_BYTES_PER_ROW, runNeedBytes } from '../redis/sizing.js';
import { RedisLostError } from '../redis/watch.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import type { RowEstimate } from '../sources/index.js';
import { thousands } from '../thousands.js';
import { UsageError } from './usage-error.js';

/** What these checks read of a runtime (runtime.ts), without importing it. */
interface RedisView {
  config: {
    redisUrl: string;
    redisDeadlineMs: number;
    prefix: string;
    redisCluster: { username?: string } | null;
  };
  serverInfo(): Promise<RedisServerInfo | null>;
}

const count = thousands;

/**
 * Before the first request (issue 18): when Redis has a maxmemory, the run's need (rows × what a run
 * keeps per row, BENCHMARKS.md) is compared with the room left, and a run that cannot fit is refused
 * in one line with the figures, unless `--force`. A source whose size is unknown before it is read
 * (standard input, a feed without a length) is not checked, and the log says so.
 */
export async function checkRedisRoom(
  runtime: RedisView & { logger: Logger },
  estimate: RowEstimate | null,
  force: boolean,
): Promise<void> {
  const info = await runtime.serverInfo();
  if (!info || info.maxmemory === 0) return;
  const at = displayRedisUrl(runtime.config.redisUrl);
  if (!estimate) {
    runtime.logger.info(
      `the source's row count is unknown before it is read (standard input, or a feed that gives no length): ` +
        `the room left in Redis at ${at} (${describeMemory(info)}) is not checked`,
    );
    return;
  }
  const source = estimate.bytesPerRow ?? 0;
  const need = runNeedBytes(estimate.rows, source);
  const room = roomLeft(info);
  if (need <= room) return;
  const line =
    `Redis at ${at} has about ${formatBytes(room)} left (${describeMemory(info)}); this run needs about ` +
    `${formatBytes(need)} for ${countOf(estimate.rows, 'row', 'rows', count(estimate.rows))} (${estimate.how}; ${KEPT_BYTES_PER_ROW} bytes a row ` +
    `kept, ${QUEUED_BYTES_PER_ROW + source} more while queued (${source} of them its source values)): ` +
    'raise maxmemory or free space, or pass --force to try anyway';
  if (!force) throw new UsageError(line);
  runtime.logger.info(`${line} (--force: trying anyway)`);
}

/**
 * About how much more Redis a run stopped by a full Redis needs: its unsettled rows when its source
 * was read whole (a re-run goes on with it), else the whole run again (a re-run reads the source anew).
 */
export async function remainingNeed(
  runs: RunStore,
  runId: string | null,
  estimate: RowEstimate | null,
): Promise<number | null> {
  const run = runId ? await runs.get(runId).catch(() => null) : null;
  if (run?.produced) return Math.max(0, run.total - run.settled) * KEPT_BYTES_PER_ROW;
  const rows = Math.max(estimate?.rows ?? 0, run?.total ?? 0);
  return rows > 0 ? runNeedBytes(rows, estimate?.bytesPerRow ?? 0) : null;
}

/**
 * What the unfinished runs (the newest 1,000) still need, for a worker that found Redis full: their
 * unsettled rows at what a run keeps per row.
 */
export async function queuedNeed(runtime: {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}): Promise<number | null> {
  const ids = await runtime.redis.zrevrange(runtime.keys.runs, 0, 999);
  let rows = 0;
  for (const id of ids) {
    const run = await runtime.runs.get(id);
    if (run && run.state !== 'done') rows += Math.max(0, run.total - run.settled);
  }
  return rows > 0 ? rows * KEPT_BYTES_PER_ROW : null;
}

/**
 * The one line that says Redis stopped us: the line that ends a run (exit 2), or what a worker logs
 * once a minute while it takes no new job.
 */
export async function redisFaultLine(
  runtime: RedisView,
  fault: RedisFaultError,
  needBytes: number | null,
  who: 'run' | 'worker' = 'run',
): Promise<string> {
  const at = displayRedisUrl(runtime.config.redisUrl);
  if (fault.kind === 'lost') {
    return "Redis lost this run's state, probably a restart without persistence: run it again";
  }
  if (fault.kind === 'unanswered') {
    // A cluster's failover that did not end in time: said as a single Redis's silence is.
    const seconds = Math.round(runtime.config.redisDeadlineMs / 1000);
    if (who === 'run') return new RedisLostError(runtime.config.redisUrl, seconds).message;
    return (
      `Redis at ${at} has not answered for ${seconds} s (a master of the cluster is out of reach, ` +
      'and no replica took its place); no new job is taken until it answers again'
    );
  }
  if (fault.kind === 'denied') {
    // No wait: a worker ends with it as `run` does (worker.ts). Nothing is lost meanwhile: a run's
    // rows not settled stay in its queue, a chunk in progress too (taken up once its lock runs out).
    return permissionRefusalLine(fault.message, {
      at,
      user: redisUser(runtime.config),
      prefix: runtime.config.prefix,
      next: 'then run the command again (the rows already queued stay queued)',
    });
  }
  const info = await runtime.serverInfo().catch(() => null);
  const then = who === 'run' ? 'then run again' : 'no new job is taken until it accepts writes again';
  if (fault.kind === 'read-only') {
    return (
      `Redis at ${at} refused a write: it is a read-only replica${info?.primary ? ` (of ${info.primary})` : ''}; ` +
      `point REDIS_URL at its primary; ${then}`
    );
  }
  const memory = info ? ` (${describeMemory(info)})` : '';
  const what = who === 'run' ? 'this run needs' : 'the queued runs need';
  const need =
    needBytes === null
      ? ''
      : needBytes > 0
        ? `, ${what} about ${formatBytes(needBytes)} more`
        : `, ${what} a little more to finish`;
  return `Redis at ${at} is full${memory}${need}; raise maxmemory or free space; ${then}`;
}

/** The ACL user REDIS_URL (or REDIS_CLUSTER) names; `default`, Redis's, when it names none. */
function redisUser(config: RedisView['config']): string {
  if (config.redisCluster) return config.redisCluster.username || 'default';
  return redisUserOf(config.redisUrl);
}
