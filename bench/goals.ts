/**
 * Issue 12's goals, each measured next to its bound: PASS or FALL SHORT. A benchmark reports; it
 * exits 0 whatever the verdicts (a goal that fails to run is reported as such, not thrown).
 *
 * Each goal runs in a child process of its own (one goal's heap and patched sockets cannot touch
 * another's), with a private redis-server on a port of 6551–6559 that it starts and stops, sandboxes
 * on free ports, and a time limit.
 *
 *   npm run build && node dist/bench/goals.js [goal numbers, e.g. 1 3]
 *   node dist/bench/goals.js bounds   issue 31's table only: each row's figure the median of three
 *       runs of its measurement (the bare client and the CLI alternate in each), against its bound
 *   BENCH_QUICK=1 …   sizes ~10× smaller, for trying it; BENCH_ROWS=… the 1M-row import's size
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { measureCpuProfile } from './cpu-profile.js';
import { BOUND_SOURCES, boundsTable, RUNS, referenceLines } from './goals/bounds.js';
import { measureDailyLimit } from './goals/daily-limit.js';
import { measureMillionImport } from './goals/million-import.js';
import { measureNightlyFootprint } from './goals/nightly-footprint.js';
import { measurePace } from './goals/pace.js';
import { measurePausedBackpressure } from './goals/paused-backpressure.js';
import { stopBenchRedisServers } from './goals/private-redis.js';
import { type GoalReport, type GoalResult, goalTable } from './goals/result.js';
import { QUICK } from './goals/scale.js';
import { measureThroughput } from './goals/throughput.js';
import { measureUnchangedRerun } from './goals/unchanged-rerun.js';
import { measureWorkerTakeover } from './goals/worker-takeover.js';

const GOALS: Record<string, { name: string; measure: () => Promise<GoalReport>; limitMs: number }> = {
  '1': { name: '1–2. throughput at the bound, work per row', measure: measureThroughput, limitMs: 120_000 },
  '3': { name: '3. Redis kept per product', measure: measureNightlyFootprint, limitMs: 300_000 },
  '4': { name: '4. backpressure while paused', measure: measurePausedBackpressure, limitMs: 90_000 },
  '5': { name: '5. 1M-row import', measure: measureMillionImport, limitMs: 240_000 },
  '6': { name: '6. unchanged re-run at 100k', measure: measureUnchangedRerun, limitMs: 180_000 },
  '7': { name: '7. CPU profile per row', measure: measureCpuProfile, limitMs: 120_000 },
};
/** The measurements of issue 31's table besides goals 3 and 5 (goals/bounds.ts). */
const MEASUREMENTS: typeof GOALS = {
  ...GOALS,
  pace: {
    name: 'pace against the bare client, Redis commands and CPU per row',
    measure: measurePace,
    limitMs: 240_000,
  },
  takeover: { name: 'a worker killed mid-run', measure: measureWorkerTakeover, limitMs: 180_000 },
  'daily-limit': { name: 'daily-limit crossings', measure: measureDailyLimit, limitMs: 120_000 },
};
const REPORT_MARK = 'GOAL-REPORT ';

/** Runs one goal in a child process; a goal that fails or overruns becomes a line that says so. */
async function inChildProcess(id: string): Promise<GoalReport> {
  const goal = MEASUREMENTS[id];
  if (!goal) throw new Error(`no goal ${id}`);
  // A process group of its own: at the time limit the goal's sandboxes and CLI children stop with it.
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--goal', id], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const timer = setTimeout(() => process.kill(-(child.pid ?? 0), 'SIGKILL'), goal.limitMs);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(timer);
  const line = output.split('\n').find((l) => l.startsWith(REPORT_MARK));
  if (line) return JSON.parse(line.slice(REPORT_MARK.length)) as GoalReport;
  // A goal that could not stop its redis-server (daemonized, outside the group) leaves it to us.
  stopBenchRedisServers();
  const why = signal ? `stopped after ${goal.limitMs / 1000} s` : `exited ${code}`;
  return {
    results: [{ goal: goal.name, figure: `not measured: ${why}`, bound: '', pass: null }],
    details: output.trim() ? [output.trim()] : [],
  };
}

async function main(): Promise<void> {
  if (process.argv[2] === '--goal') {
    const goal = MEASUREMENTS[process.argv[3] ?? ''];
    const report: GoalReport = await (goal?.measure() ?? Promise.reject(new Error('no such goal'))).catch(
      (error: unknown) => ({
        results: [{ goal: goal?.name ?? '?', figure: `failed: ${String(error)}`, bound: '', pass: null }],
        details: [error instanceof Error ? (error.stack ?? error.message) : String(error)],
      }),
    );
    console.log(`${REPORT_MARK}${JSON.stringify(report)}`);
    // Whatever the goal left open (a Redis client retrying, a timer) must not keep it running.
    process.exit(0);
  }
  if (process.argv[2] === 'bounds') return bounds();
  const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(GOALS);
  console.log(
    `goals of issue 12${QUICK ? ' (BENCH_QUICK: sizes ~10× smaller)' : ''}: ${availableParallelism()} cpus ` +
      `(${cpus()[0]?.model ?? 'unknown'}), node ${process.version}`,
  );
  const started = Date.now();
  const results: GoalResult[] = [];
  const details: string[] = [];
  for (const id of chosen) {
    const goalStarted = Date.now();
    const report = await inChildProcess(id);
    console.log(`${GOALS[id]?.name}: ${((Date.now() - goalStarted) / 1000).toFixed(0)} s`);
    results.push(...report.results);
    details.push(...(report.details ?? []));
  }
  console.log(`\n${goalTable(results)}\n`);
  for (const r of results.filter((r) => r.note)) console.log(`- ${r.goal}: ${r.note}`);
  for (const detail of details) console.log(`\n${detail}`);
  console.log(`\nwhole goals bench: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Issue 31's table: each measurement RUNS times, one after the other, in child processes of this one. */
async function bounds(): Promise<void> {
  console.log(
    `goals of issue 31${QUICK ? ' (BENCH_QUICK: sizes ~10× smaller)' : ''}: ${availableParallelism()} cpus ` +
      `(${cpus()[0]?.model ?? 'unknown'}), node ${process.version}; medians of ${RUNS} runs`,
  );
  const started = Date.now();
  const reports = new Map<string, GoalReport[]>();
  for (let run = 1; run <= RUNS; run++) {
    for (const id of BOUND_SOURCES) {
      const goalStarted = Date.now();
      reports.set(id, [...(reports.get(id) ?? []), await inChildProcess(id)]);
      console.log(
        `${MEASUREMENTS[id]?.name} (run ${run}): ${((Date.now() - goalStarted) / 1000).toFixed(0)} s`,
      );
    }
  }
  console.log(`\n${boundsTable(reports)}\n`);
  for (const line of referenceLines(reports)) console.log(`- ${line}`);
  console.log(`whole bounds bench: ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((error: unknown) => {
  // A benchmark reports; it does not fail CI.
  console.error(error);
});
