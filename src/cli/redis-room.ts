import type { Logger } from '../logger.js';
import { displayRedisUrl } from '../redis/connect.js';
import { describeMemory, formatBytes, type RedisServerInfo, roomLeft } from '../redis/server-info.js';
import { KEPT_BYTES_PER_ROW, QUEUED_BYTES_PER_ROW, runNeedBytes } from '../redis/sizing.js';
import type { RowEstimate } from '../sources/index.js';
import { UsageError } from './usage-error.js';

/** What these checks read of a runtime (runtime.ts), without importing it. */
interface RedisView {
  config: { redisUrl: string };
  serverInfo(): Promise<RedisServerInfo | null>;
}

const count = (n: number) => n.toLocaleString('en-US');

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
  const need = runNeedBytes(estimate.rows);
  const room = roomLeft(info);
  if (need <= room) return;
  const line =
    `Redis at ${at} has about ${formatBytes(room)} left (${describeMemory(info)}); this run needs about ` +
    `${formatBytes(need)} for ${count(estimate.rows)} rows (${estimate.how}; ${KEPT_BYTES_PER_ROW} bytes a row ` +
    `kept, ${QUEUED_BYTES_PER_ROW} more while queued): raise maxmemory or free space, or pass --force to try anyway`;
  if (!force) throw new UsageError(line);
  runtime.logger.info(`${line} (--force: trying anyway)`);
}
