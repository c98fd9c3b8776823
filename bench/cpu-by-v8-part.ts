/**
 * Where the CPU of a fresh sync goes by part of the process (issue 31's CPU row): `run` of 2,000 new
 * rows (C = 16, L = 20 ms) and of 1 row (what every run pays whatever its size) under Linux `perf
 * record`, their samples summed by the part of Node they fell in (v8-parts/categories.ts): V8's
 * interpreter and baseline code, its optimising compiler, its collector, the kernel… A `.cpuprofile`
 * (cpu-profile.ts) shows only JavaScript frames, by wall time; this is CPU, every thread. Beside it,
 * the bare client's creates (goals/bare-client.ts) in a process of their own, sampled the same way.
 *
 *   npm run build && node dist/bench/cpu-by-v8-part.js [rows]     # needs `perf` (Debian: linux-perf)
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { projectRoot } from '../src/project-root.js';
import { startSandboxProcess } from './big-import/processes.js';
import { BENCH_KEY, BENCH_SELLER } from './goals/measured-sync.js';
import { startBenchRedis } from './goals/private-redis.js';
import { markdownTable } from './goals/result.js';
import { generateRows, writeCatalogCsv } from './sync/catalog.js';
import { samplesByPart, V8_PARTS } from './v8-parts/categories.js';

const FREQUENCY = 1999;
const CONCURRENCY = 16;

/** `node <args>` under `perf record`, against a sandbox at L = 20 ms; resolves to samples by part. */
async function recorded(
  dir: string,
  name: string,
  args: (baseUrl: string) => Promise<string[]>,
  env: (baseUrl: string) => NodeJS.ProcessEnv = () => ({}),
) {
  const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER, ['--latency', '20']);
  try {
    const data = join(dir, `${name}.perf`);
    const perf = ['record', '-q', '-F', String(FREQUENCY), '-o', data, '--', process.execPath];
    const child = spawn('perf', [...perf, '--perf-basic-prof', ...(await args(sandbox.baseUrl))], {
      env: { ...env(sandbox.baseUrl), PATH: process.env.PATH },
      // --perf-basic-prof turns V8's logger on, which writes isolate-*-v8.log where the process runs.
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString('utf8');
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`perf record … ${name} exited ${code}: ${errors.slice(0, 500)}`);
    const report = await promisify(execFile)(
      'perf',
      ['report', '-i', data, '--stdio', '-n', '--no-children', '--sort', 'dso,sym', '-g', 'none'],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    return samplesByPart(report.stdout);
  } finally {
    await sandbox.stop();
  }
}

export async function measureCpuByV8Part(rows = 2000): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-v8-parts-'));
  const bench = await startBenchRedis(6558);
  const cli = join(projectRoot(), 'bin/catalog-sync.js');
  /** `run` of `count` new rows, C = 16. */
  const run = (count: number, prefix: string) =>
    recorded(
      dir,
      prefix,
      async () => {
        const csv = join(dir, `catalog-${prefix}.csv`);
        await writeCatalogCsv(csv, generateRows(count));
        return [cli, 'run', csv, '--concurrency', String(CONCURRENCY)];
      },
      (baseUrl) => ({
        SELLER_API_BASE_URL: baseUrl,
        SELLER_API_KEY: BENCH_KEY,
        REDIS_URL: bench.url,
        CATALOG_SYNC_PREFIX: prefix,
        LOG_LEVEL: 'silent',
      }),
    );
  const bareProcess = fileURLToPath(new URL('./v8-parts/bare-process.js', import.meta.url));
  try {
    const bare = await recorded(dir, 'bare', async (baseUrl) => [
      bareProcess,
      baseUrl,
      BENCH_KEY,
      String(rows),
      String(CONCURRENCY),
    ]);
    const one = await run(1, 'bench-v8-one');
    const many = await run(rows, 'bench-v8-many');
    const ms = (samples: number) => (samples * 1000) / FREQUENCY;
    const total = (parts: Map<string, number>) => [...parts.values()].reduce((a, b) => a + b, 0);
    const all = total(many);
    const table = V8_PARTS.filter((part) => many.has(part) || one.has(part)).map((part) => {
      const samples = many.get(part) ?? 0;
      return [
        part,
        `${((100 * samples) / all).toFixed(1)} %`,
        `${((1000 * ms(samples)) / rows).toFixed(0)}`,
        `${((1000 * ms(bare.get(part) ?? 0)) / rows).toFixed(0)}`,
        `${ms(one.get(part) ?? 0).toFixed(0)}`,
      ];
    });
    table.push([
      'all',
      '100 %',
      `${((1000 * ms(all)) / rows).toFixed(0)}`,
      `${((1000 * ms(total(bare))) / rows).toFixed(0)}`,
      `${ms(total(one)).toFixed(0)}`,
    ]);
    return markdownTable(
      [
        'part of the process',
        `share of \`run\`, ${rows} rows`,
        '`run`: µs per created row',
        'bare client: µs per row',
        '`run` of 1 row: ms',
      ],
      table,
    );
  } finally {
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  measureCpuByV8Part(process.argv[2] ? Number(process.argv[2]) : undefined)
    .then((table) => console.log(table))
    .catch((error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
