/**
 * Redis work per row of a sync (issue 12, "work per row"): a fresh sync of N rows, then the same
 * catalog again (nothing to write). The CLI runs in this process against the in-process sandbox and a
 * Redis of its own (REDIS_URL, else a private redis-server), so `INFO commandstats` holds this
 * run's commands only. For each run it prints:
 *   - Redis commands per row (the server's `INFO commandstats` delta, BullMQ's included), and the
 *     commands that make up most of them;
 *   - round trips per row: writes on the sockets to that Redis (a pipeline or MULTI is one write, as
 *     ioredis sends it; BullMQ's own connections included);
 *   - CPU per row of this process (CLI and sandbox together: compare runs, not absolute figures);
 *   - the log lines written (LOG_LEVEL, default silent: at `info` a sync logs per run, not per row).
 *
 *   npm run build && node dist/bench/redis-trips.js [rows] [latencyMs] [concurrency]
 */

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../src/redis/private-server.js';
import { startSandbox } from '../src/sandbox/index.js';
import { generateRows, writeCatalogCsv } from './sync/catalog.js';
import { runCli } from './sync/cli-run.js';
import { PAGE_SIZE } from './sync/measure.js';

/** Counts writes on sockets to `port`: one per command or per pipeline, as ioredis sends them. */
function countSocketWrites(port: number): () => number {
  let writes = 0;
  const original = Socket.prototype.write;
  Socket.prototype.write = function write(this: Socket, ...args: unknown[]) {
    if (this.remotePort === port) writes++;
    return (original as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof Socket.prototype.write;
  return () => writes;
}

async function commandStats(redis: Redis): Promise<Map<string, number>> {
  const stats = new Map<string, number>();
  for (const line of (await redis.info('commandstats')).split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+)/.exec(line.trim());
    if (match) stats.set(match[1] as string, Number(match[2]));
  }
  return stats;
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 2000);
  const latencyMs = Number(process.argv[3] ?? 5);
  const concurrency = Number(process.argv[4] ?? 16);
  const own = process.env.REDIS_URL ? null : await startPrivateRedis();
  const url = process.env.REDIS_URL ?? (own?.url as string);
  const port = Number(new URL(url).port || 6379);
  const writes = countSocketWrites(port);
  const admin = new Redis(url);
  const prefix = `bench-trips-${randomBytes(4).toString('hex')}`;
  const dir = await mkdtemp(join(tmpdir(), 'bench-trips-'));
  const sandbox = await startSandbox({ latencyMs, pageSize: PAGE_SIZE });
  try {
    const path = join(dir, 'catalog.csv');
    await writeCatalogCsv(path, generateRows(rows));
    console.log(
      `${rows} rows, sandbox latency ${latencyMs} ms, --concurrency ${concurrency}, node ${process.version}`,
    );
    for (const label of ['fresh sync', 'unchanged re-run']) {
      const before = await commandStats(admin);
      const writesBefore = writes();
      const cpu = process.cpuUsage();
      const result = await runCli(['run', path, '--concurrency', String(concurrency)], {
        SELLER_API_BASE_URL: sandbox.baseUrl,
        SELLER_API_KEY: sandbox.defaultKey.key,
        REDIS_URL: url,
        CATALOG_SYNC_PREFIX: prefix,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
        PATH: process.env.PATH,
      });
      if (result.exitCode !== 0) throw new Error(`run exited ${result.exitCode}:\n${result.stderr}`);
      const used = process.cpuUsage(cpu);
      const trips = writes() - writesBefore;
      const after = await commandStats(admin);
      const deltas = [...after]
        .map(([name, calls]) => [name, calls - (before.get(name) ?? 0)] as const)
        .filter(([name, calls]) => calls > 0 && name !== 'info')
        .sort((a, b) => b[1] - a[1]);
      const commands = deltas.reduce((sum, [, calls]) => sum + calls, 0);
      const top = deltas
        .slice(0, 12)
        .map(([name, calls]) => `${name} ${(calls / rows).toFixed(2)}`)
        .join(', ');
      console.log(
        `${label}: ${(commands / rows).toFixed(2)} commands/row, ${(trips / rows).toFixed(2)} round trips/row, ` +
          `${((used.user + used.system) / rows).toFixed(0)} µs CPU/row, ${(result.ms / 1000).toFixed(2)} s, ` +
          `${result.stderr.split('\n').filter(Boolean).length} log lines`,
      );
      console.log(`  per row: ${top}`);
    }
  } finally {
    await sandbox.close();
    admin.disconnect();
    await rm(dir, { recursive: true, force: true });
    await own?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
