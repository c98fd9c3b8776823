/**
 * Where a fresh `run` spends its CPU and its first moments (issue 31: the pace and CPU rows). The
 * same fresh sync (a new sandbox process, so every row is a create) runs several times in this one
 * process, as the goals bench runs `run` in its child: the first run is a CLI process's (cold code),
 * the later ones show what a row costs once the code is warm. Per run: CPU (`process.cpuUsage()`,
 * this process's compiler and collector threads included), how much of it the main thread used and
 * how much the other threads (V8's optimising compiler and collector helpers; /proc, Linux only),
 * wall time, and when the first request and the first write went out after `run` began. Private
 * Redis on port 6557.
 *
 *   npm run build && node dist/bench/first-write.js [latency ms, 20] [rows, 2000] [runs, 3]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandboxProcess } from './big-import/processes.js';
import { BENCH_KEY, BENCH_SELLER } from './goals/measured-sync.js';
import { startBenchRedis } from './goals/private-redis.js';
import { generateRows, writeCatalogCsv } from './sync/catalog.js';
import { registrations, runCli } from './sync/cli-run.js';

/** When each request of this process went out (performance.now()), and its method. */
const sent: Array<{ at: number; method: string }> = [];

/** node:http's `request` wrapped to note each request (the CLI's requester imports it by name). */
function noteRequests(): void {
  const request = http.request;
  http.request = ((...args: Parameters<typeof http.request>) => {
    const made = request(...args);
    sent.push({ at: performance.now(), method: made.method });
    return made;
  }) as typeof http.request;
  syncBuiltinESMExports();
}

/** CPU ms used so far by this process's main thread and by all its other threads, from /proc. */
function cpuByThread(): { main: number; others: number } {
  const ticks = (task: string) => {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  let others = 0;
  for (const task of readdirSync('/proc/self/task')) if (Number(task) !== process.pid) others += ticks(task);
  return { main: ticks(String(process.pid)), others };
}

async function main(latencyMs: number, rows: number, runs: number): Promise<void> {
  noteRequests();
  const dir = await mkdtemp(join(tmpdir(), 'bench-first-write-'));
  const bench = await startBenchRedis(6557);
  try {
    const path = join(dir, 'catalog.csv');
    await writeCatalogCsv(path, generateRows(rows));
    const cpuMs = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1000;
    const before = process.cpuUsage();
    await registrations(['node', 'catalog-sync', 'run', path]);
    console.log(`the command's modules: ${cpuMs(process.cpuUsage(before)).toFixed(0)} ms of CPU`);
    for (let run = 1; run <= runs; run++) {
      const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER, ['--latency', String(latencyMs)]);
      try {
        sent.length = 0;
        const cpu = process.cpuUsage();
        const threads = cpuByThread();
        const result = await runCli(['run', path, '--concurrency', '16'], {
          SELLER_API_BASE_URL: sandbox.baseUrl,
          SELLER_API_KEY: BENCH_KEY,
          REDIS_URL: bench.url,
          CATALOG_SYNC_PREFIX: 'bench-first-write',
          LOG_LEVEL: 'silent',
          PATH: process.env.PATH,
        });
        const used = cpuMs(process.cpuUsage(cpu));
        const { main: mainThread, others } = cpuByThread();
        if (result.exitCode !== 0) throw new Error(`run exited ${result.exitCode}: ${result.stderr}`);
        const began = performance.now() - result.ms;
        const after = (method?: string) =>
          (sent.find((request) => method === undefined || request.method === method)?.at ?? Number.NaN) -
          began;
        console.log(
          `run ${run}: ${used.toFixed(0)} ms of CPU (${(used / rows).toFixed(3)} ms a row), ` +
            `main thread ${mainThread - threads.main} ms, other threads ${others - threads.others} ms, ` +
            `${(result.ms / 1000).toFixed(3)} s; first request ${after().toFixed(0)} ms, ` +
            `first write ${after('POST').toFixed(0)} ms after it began`,
        );
      } finally {
        await sandbox.stop();
      }
    }
  } finally {
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [latency, rows, runs] = process.argv.slice(2).map(Number);
  main(latency || 20, rows || 2000, runs || 3).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
