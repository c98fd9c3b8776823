/**
 * Where the CPU of a fresh sync goes, per row, by module (issue 12: "a CPU profile summary").
 * A 5,000-row fresh sync (`catalog-sync run --concurrency 16`) runs under `node --cpu-prof` against a
 * sandbox process (5 ms latency) and a private redis-server on port 6557; the profile's samples are
 * summed by the module their code belongs to (src/… file, npm package, node: part): self time, µs of
 * the CLI process's CPU per row. The sandbox and Redis are other processes, not in the profile.
 *
 *   npm run build && node dist/bench/cpu-profile.js [rows]        # BENCH_QUICK=1: 500 rows
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnCli, startSandboxProcess } from './big-import/processes.js';
import { BENCH_KEY, BENCH_SELLER } from './goals/measured-sync.js';
import { startBenchRedis } from './goals/private-redis.js';
import { perRowTable, selfTimeByModule } from './goals/profile-by-module.js';
import type { GoalReport } from './goals/result.js';
import { scaled } from './goals/scale.js';
import { generateRows, writeCatalogCsv } from './sync/catalog.js';

export async function measureCpuProfile(rows = scaled(5000)): Promise<GoalReport> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-cpu-profile-'));
  const bench = await startBenchRedis(6557);
  const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER, ['--latency', '5']);
  try {
    const path = join(dir, 'catalog.csv');
    await writeCatalogCsv(path, generateRows(rows));
    const profiles = join(dir, 'profiles');
    const cli = spawnCli(
      ['run', path, '--concurrency', '16'],
      {
        SELLER_API_BASE_URL: sandbox.baseUrl,
        SELLER_API_KEY: BENCH_KEY,
        REDIS_URL: bench.url,
        CATALOG_SYNC_PREFIX: 'bench-goals',
        LOG_LEVEL: 'silent',
        PATH: process.env.PATH,
      },
      ['--cpu-prof', '--cpu-prof-dir', profiles],
    );
    const code = await cli.exited;
    if (code !== 0) throw new Error(`run exited ${code}:\n${cli.output()}`);
    const [profile] = (await readdir(profiles)).filter((f) => f.endsWith('.cpuprofile'));
    if (!profile) throw new Error('node --cpu-prof wrote no profile');
    const times = await selfTimeByModule(join(profiles, profile));
    const total = times.reduce((sum, t) => sum + t.micros, 0);
    const [first, second] = times;
    const top = [first, second].filter((t) => t !== undefined);
    return {
      results: [
        {
          goal: `7. CPU of the CLI per row, fresh sync of ${rows} rows (--cpu-prof)`,
          figure:
            `${(total / rows).toFixed(0)} µs/row; most: ` +
            top.map((t) => `${t.module} ${(t.micros / rows).toFixed(0)}`).join(', '),
          bound: '(reported)',
          pass: null,
        },
      ],
      details: [
        `CPU per row by module, fresh sync of ${rows} rows (the process's start, module loading, included):\n` +
          perRowTable(times, rows),
      ],
    };
  } finally {
    await sandbox.stop();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = process.argv[2] ? Number(process.argv[2]) : undefined;
  measureCpuProfile(rows)
    .then((report) => {
      console.log(report.results.map((r) => `${r.goal}: ${r.figure}`).join('\n'));
      for (const detail of report.details ?? []) console.log(`\n${detail}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
}
