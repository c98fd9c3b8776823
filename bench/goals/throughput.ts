import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { totalCommands } from '../../src/redis/command-counts.js';
import { startSandboxProcess } from '../big-import/processes.js';
import { type CatalogRow, generateRows, writeCatalogCsv } from '../sync/catalog.js';
import { bareClientSeconds } from './bare-client.js';
import { BENCH_KEY, BENCH_SELLER, type MeasuredSync, measuredSync } from './measured-sync.js';
import { startBenchRedis } from './private-redis.js';
import { type GoalReport, type GoalResult, markdownTable } from './result.js';
import { scaled } from './scale.js';

export const CONCURRENCY = 16;
const FLOOR_KEY = 'sk_bench_goals_floor';
const MAX_TRIPS_PER_ROW = 2;
/** Latency of the sandbox's answers → the bound on wall time, as a multiple of N·L/C. */
const SETTINGS: Array<{ latencyMs: number; bound: number }> = [
  { latencyMs: 20, bound: 1.15 },
  { latencyMs: 5, bound: 1.3 },
];

function workPerRow(label: string, rows: number, run: MeasuredSync): GoalResult {
  const trips = run.roundTrips / rows;
  return {
    goal: `2. Redis round trips per row, ${label}`,
    figure: `${trips.toFixed(2)} trips, ${(totalCommands(run.commands) / rows).toFixed(1)} commands`,
    bound: `≤ ${MAX_TRIPS_PER_ROW} trips`,
    pass: trips <= MAX_TRIPS_PER_ROW,
    note:
      `socket writes of the CLI to Redis (one per command sent alone, one per pipeline or MULTI); ` +
      `the server saw ${(run.serverReads / rows).toFixed(2)} read events per row (concurrent writes can arrive as one)`,
  };
}

/** Commands of at least 0.05 per row in some run, by the first run's count; the others summed. */
function commandTable(rows: number, runs: Array<[string, MeasuredSync]>): string {
  const perRow = (run: MeasuredSync, name: string) => (run.commands.get(name) ?? 0) / rows;
  const names = [...new Set(runs.flatMap(([, run]) => [...run.commands.keys()]))];
  const shown = names
    .filter((name) => runs.some(([, run]) => perRow(run, name) >= 0.05))
    .sort((a, b) => perRow(runs[0]?.[1] as MeasuredSync, b) - perRow(runs[0]?.[1] as MeasuredSync, a));
  const others = names.filter((name) => !shown.includes(name));
  const othersPerRow = (run: MeasuredSync) => others.reduce((sum, name) => sum + perRow(run, name), 0);
  return markdownTable(
    ['Redis command (INFO commandstats)', ...runs.map(([label]) => `${label}: per row`)],
    [
      ...shown.map((name) => [name, ...runs.map(([, run]) => perRow(run, name).toFixed(2))]),
      [`${others.length} others`, ...runs.map(([, run]) => othersPerRow(run).toFixed(2))],
      ['total', ...runs.map(([, run]) => (totalCommands(run.commands) / rows).toFixed(2))],
    ],
  );
}

/** The bare client's time (bare-client.ts) against a double of its own, started with the CLI's flags. */
export async function floorSeconds(flags: string[], catalog: CatalogRow[]): Promise<number> {
  return (await measuredFloor(flags, catalog)).seconds;
}

/**
 * The same, with the CPU this process used while the bare client sent its creates: how fast the
 * machine is for the work no client can skip (a request's write, its answer's parse), beside which
 * the CLI's CPU per row reads (issue 31's bound on it is absolute).
 */
export async function measuredFloor(
  flags: string[],
  catalog: CatalogRow[],
): Promise<{ seconds: number; cpuMs: number }> {
  // Its creates must not be in the CLI's seller, or the CLI's sync would not be a fresh one.
  const double = await startSandboxProcess(FLOOR_KEY, 'bench-goals-floor', flags);
  try {
    const cpu = process.cpuUsage();
    const seconds = await bareClientSeconds(double.baseUrl, FLOOR_KEY, catalog, CONCURRENCY);
    const { user, system } = process.cpuUsage(cpu);
    return { seconds, cpuMs: (user + system) / 1000 };
  } finally {
    await double.stop();
  }
}

/**
 * Goals 1 and 2: a fresh sync of 2,000 rows at --concurrency 16 into an empty sandbox seller (a
 * process of its own, `catalog-sync sandbox --latency L`), the CLI in this process, Redis private on
 * port 6551; then, at L = 20 ms, the same catalog again (unchanged re-run).
 */
export async function measureThroughput(): Promise<GoalReport> {
  const rows = scaled(2000, 500);
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-throughput-'));
  const bench = await startBenchRedis(6551);
  const results: GoalResult[] = [];
  const details: string[] = [];
  try {
    const path = join(dir, 'catalog.csv');
    const catalog = generateRows(rows);
    await writeCatalogCsv(path, catalog);
    for (const { latencyMs, bound } of SETTINGS) {
      const flags = ['--latency', String(latencyMs)];
      const floor = await floorSeconds(flags, catalog);
      const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER, flags);
      try {
        const ideal = (rows * latencyMs) / 1000 / CONCURRENCY;
        const fresh = await measuredSync(bench, sandbox.baseUrl, path, CONCURRENCY);
        const ratio = fresh.seconds / ideal;
        results.push({
          goal: `1. fresh sync, ${rows} rows, L = ${latencyMs} ms, C = ${CONCURRENCY}`,
          figure: `${fresh.seconds.toFixed(2)} s = ${ratio.toFixed(2)} × N·L/C (${ideal.toFixed(2)} s)`,
          bound: `≤ ${bound} ×`,
          pass: ratio <= bound,
          note:
            latencyMs !== 20
              ? undefined
              : 'CLI in the bench process (main(argv, io)), sandbox a process of its own (`catalog-sync sandbox ' +
                '--latency L`); wall time of `run` from start to summary',
        });
        results.push({
          goal: `1. the same, against a bare HTTP client (L = ${latencyMs} ms)`,
          figure: `${(fresh.seconds / floor).toFixed(2)} × the bare client's ${floor.toFixed(2)} s (${(floor / ideal).toFixed(2)} × N·L/C)`,
          bound: '(reported)',
          pass: null,
          note:
            latencyMs !== 20
              ? undefined
              : 'the same creates by node:http alone (keep-alive, C in flight) to a second double with the same ' +
                'latency, just before the CLI: what the double and the loopback take over N·L/C before any of our work',
        });
        if (latencyMs !== 20) continue;
        const again = await measuredSync(bench, sandbox.baseUrl, path, CONCURRENCY);
        results.push(workPerRow('fresh sync', rows, fresh), workPerRow('unchanged re-run', rows, again));
        details.push(
          commandTable(rows, [
            ['fresh', fresh],
            ['re-run', again],
          ]),
        );
      } finally {
        await sandbox.stop();
      }
    }
    return { results, details };
  } finally {
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
