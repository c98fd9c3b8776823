/**
 * Issue 4: the producer streams, so memory and Redis stay flat whatever the source size
 * (docs/architecture.md, decision 6: backpressure at a high-water mark of waiting jobs).
 *
 * For a small and a big generated generic catalog, each in a fresh child process of its own:
 *   1. `import` (the CLI in-process, `main(argv, io)`) with no worker: the producer must block at
 *      the high-water mark; its RSS and the Redis memory are sampled every 200 ms and must plateau;
 *   2. a `worker` process (`node bin/catalog-sync.js worker`: its stop signal is not reachable
 *      through `main`) then syncs the run into the sandbox Seller API (a process of its own);
 *   3. what the run keeps in Redis afterwards (outcomes and index for 7 days, the seller's id map).
 * Redis runs under a unique CATALOG_SYNC_PREFIX whose keys are deleted at the end.
 *
 *   npm run build && node dist/bench/big-import.js [rows] [comparisonRows]
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { ScenarioResult } from './big-import/scenario.js';
import { runScenario } from './big-import/scenario.js';
import { keptRunKeysTable, resultTable } from './big-import/table.js';
import { redisVersion, removeKeys } from './sync/redis-info.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RESULT_MARK = 'SCENARIO-RESULT ';

/** Runs one scenario in a fresh Node process, so that one size's heap cannot inflate the other's RSS. */
async function inChildProcess(rows: number, prefix: string): Promise<ScenarioResult> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), '--scenario', String(rows), prefix],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: process.env,
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const [code] = await once(child, 'exit');
  const line = output.split('\n').find((l) => l.startsWith(RESULT_MARK));
  if (code !== 0 || !line) throw new Error(`the ${rows}-row scenario failed (exit ${code}):\n${output}`);
  return JSON.parse(line.slice(RESULT_MARK.length)) as ScenarioResult;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--scenario') {
    const result = await runScenario(Number(process.argv[3]), process.argv[4] ?? '', REDIS_URL);
    console.log(`${RESULT_MARK}${JSON.stringify(result)}`);
    return;
  }
  const rows = Number(process.argv[2] ?? 200_000);
  const comparison = Number(process.argv[3] ?? Math.min(50_000, Math.round(rows / 4)));
  const id = randomBytes(4).toString('hex');
  const prefixes = [`bench-big-${id}-a`, `bench-big-${id}-b`];
  console.log(
    `machine: ${availableParallelism()} cpus (${cpus()[0]?.model ?? 'unknown'}), node ${process.version}, ` +
      `redis ${await redisVersion(REDIS_URL)}; ${comparison} and ${rows} rows, sandbox without latency`,
  );
  const started = Date.now();
  try {
    const results: ScenarioResult[] = [];
    for (const [i, size] of [comparison, rows].entries()) {
      console.log(`${size} rows…`);
      results.push(await inChildProcess(size, prefixes[i] ?? ''));
    }
    console.log(resultTable(results));
    console.log(keptRunKeysTable(results));
    console.log(`whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    // Each scenario removes its keys; this catches a scenario that died before it could.
    for (const prefix of prefixes) await removeKeys(REDIS_URL, `${prefix}:`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
