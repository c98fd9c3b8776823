import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { redisAnswers } from '../../src/redis/private-server.js';

/** A redis-server of the bench's own on a fixed port (6551–6559): nothing else writes to it. */
export interface BenchRedis {
  url: string;
  redis: Redis;
  stop(): Promise<void>;
}

/** Waits up to about 15 s for a redis-server just started on `port` to answer. */
export async function untilRedisAnswers(url: string, port: number): Promise<void> {
  for (let attempt = 0; !(await redisAnswers(url, 200)); attempt++) {
    if (attempt > 50) throw new Error(`redis-server on port ${port} does not answer`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Starts `redis-server --port <port>` without persistence (the common brief's command line); throws
 * when the port already answers, so a measurement never mixes with another's keys.
 */
export async function startBenchRedis(port: number): Promise<BenchRedis> {
  const url = `redis://127.0.0.1:${port}`;
  const started = spawnSync('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--daemonize',
    'yes',
  ]);
  if (started.status !== 0) throw new Error(`redis-server on port ${port} did not start: ${started.stderr}`);
  await untilRedisAnswers(url, port);
  const redis = new Redis(url, { maxRetriesPerRequest: null });
  if ((await redis.dbsize()) !== 0) throw new Error(`the Redis on port ${port} is not empty: another bench?`);
  return {
    url,
    redis,
    async stop() {
      // Disconnected first: a client that saw the server go away would try to reconnect forever.
      redis.disconnect();
      spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
    },
  };
}

/** The bench's ports: nothing else may use them, so a server left on one is a bench's own. */
export const BENCH_REDIS_PORTS = [6551, 6552, 6553, 6554, 6555, 6556, 6557, 6558, 6559];

/** Shuts down whatever redis-server a goal stopped at its time limit left on the bench's ports. */
export function stopBenchRedisServers(): void {
  for (const port of BENCH_REDIS_PORTS) {
    spawnSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'ignore' });
  }
}

/** `used_memory` of INFO memory, in bytes. */
export async function usedMemory(redis: Redis): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1] ?? 0);
}

/**
 * `total_reads_processed` of INFO stats: the read events of the server. Commands that arrive
 * together count once, so it is at most the round trips the clients made: a cross-check of them.
 */
export async function readsProcessed(redis: Redis): Promise<number> {
  return Number(/^total_reads_processed:(\d+)/m.exec(await redis.info('stats'))?.[1] ?? 0);
}
