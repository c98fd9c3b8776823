import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { totalCommands } from '../../src/redis/command-counts.js';
import { startSandboxProcess } from '../big-import/processes.js';
import { generateRows, writeCatalogCsv } from '../sync/catalog.js';
import { BENCH_KEY, BENCH_SELLER, measuredSync } from './measured-sync.js';
import { startBenchRedis } from './private-redis.js';
import type { GoalReport, GoalResult } from './result.js';
import { scaled } from './scale.js';
import { CONCURRENCY, measuredFloor } from './throughput.js';

const reported = (goal: string, figure: string, key: string, value: number): GoalResult => ({
  goal,
  figure,
  bound: '',
  pass: null,
  measured: { key, value },
});

/**
 * Issue 31's pace and Redis rows, one measurement of each (bounds.ts runs it three times and takes
 * the medians): at L = 20 ms and 5 ms, the bare client's creates (bare-client.ts) and then the CLI's
 * fresh sync of the same 2,000 rows at C = 16 (a sandbox process each, Redis private on port 6558);
 * at 20 ms also the CLI's CPU per created row (this process's CPU while `run` runs in it) beside the
 * bare client's (this process's CPU while it sends the same creates: the machine's speed), and the
 * Redis commands per row of the fresh sync, an unchanged re-run (list read) and an unchanged
 * `--incremental` re-run (after a first one, which reads the products).
 */
export async function measurePace(): Promise<GoalReport> {
  const rows = scaled(2000, 500);
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-pace-'));
  const bench = await startBenchRedis(6558);
  const results: GoalResult[] = [];
  try {
    const path = join(dir, 'catalog.csv');
    const catalog = generateRows(rows);
    await writeCatalogCsv(path, catalog);
    for (const latencyMs of [20, 5]) {
      const flags = ['--latency', String(latencyMs)];
      const { seconds: floor, cpuMs: floorCpuMs } = await measuredFloor(flags, catalog);
      const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER, flags);
      try {
        const cpu = process.cpuUsage();
        const fresh = await measuredSync(bench, sandbox.baseUrl, path, CONCURRENCY);
        const cpuMs = (({ user, system }) => (user + system) / 1000)(process.cpuUsage(cpu));
        const ratio = fresh.seconds / floor;
        results.push(
          reported(
            `fresh sync, L = ${latencyMs} ms`,
            `${fresh.seconds.toFixed(2)} s against the bare client's ${floor.toFixed(2)} s`,
            `pace-${latencyMs}`,
            ratio,
          ),
        );
        if (latencyMs !== 20) continue;
        results.push(
          reported(
            'CLI CPU per created row',
            `${(cpuMs / rows).toFixed(2)} ms`,
            'cpu-ms-per-created-row',
            cpuMs / rows,
          ),
          reported(
            "the bare client's CPU per created row",
            `${(floorCpuMs / rows).toFixed(2)} ms`,
            'bare-cpu-ms-per-created-row',
            floorCpuMs / rows,
          ),
        );
        const perRow = (commands: Map<string, number>) => totalCommands(commands) / rows;
        const unchanged = await measuredSync(bench, sandbox.baseUrl, path, CONCURRENCY);
        await measuredSync(bench, sandbox.baseUrl, path, CONCURRENCY, ['--incremental']);
        const incremental = await measuredSync(bench, sandbox.baseUrl, path, CONCURRENCY, ['--incremental']);
        for (const [key, run] of [
          ['commands-created', fresh],
          ['commands-unchanged', unchanged],
          ['commands-incremental', incremental],
        ] as const) {
          results.push(reported(key, `${perRow(run.commands).toFixed(2)}`, key, perRow(run.commands)));
        }
      } finally {
        await sandbox.stop();
      }
    }
    return { results };
  } finally {
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
