import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { spawnCli } from '../big-import/processes.js';
import { generateRows, writeCatalogCsv } from '../sync/catalog.js';
import { runCli } from '../sync/cli-run.js';
import { BENCH_KEY, BENCH_SELLER, importEnv } from './measured-sync.js';
import { startBenchRedis } from './private-redis.js';
import type { GoalReport } from './result.js';
import { scaled } from './scale.js';
import { watchTakeover } from './takeover-watch.js';

const PREFIX = 'bench-goals';
const until = async (what: string, test: () => boolean | Promise<boolean>, limitMs = 120_000) => {
  for (const giveUp = Date.now() + limitMs; !(await test()); ) {
    if (Date.now() > giveUp) throw new Error(`no ${what} after ${limitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/**
 * Issue 31's worker-death row, one measurement (bounds.ts takes the median of three): 3,000 rows
 * imported, three `worker --concurrency 2` processes (the built CLI, default lock and stall check)
 * against a sandbox in this process (20 ms per answer), one SIGKILLed once a third of the rows are
 * written. The figure: from the kill until the last of the chunks it held was put back by a stall
 * check (takeover-watch.ts); the run must then end exact (every row once in the sandbox). Also
 * printed: the reads of the products after the kill (the look-ups of its creates). Redis private
 * on port 6559.
 */
export async function measureWorkerTakeover(): Promise<GoalReport> {
  const rows = scaled(3000, 600);
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-takeover-'));
  const bench = await startBenchRedis(6559);
  const sandbox = await startSandbox({ keys: [{ key: BENCH_KEY, seller: BENCH_SELLER }], latencyMs: 20 });
  const env = importEnv(sandbox.baseUrl, bench.url, PREFIX);
  const workers = [0, 1, 2].map(() => spawnCli(['worker', '--concurrency', '2'], env));
  try {
    const path = join(dir, 'catalog.csv');
    await writeCatalogCsv(path, generateRows(rows));
    const imported = await runCli(['import', path], env);
    if (imported.exitCode !== 0) throw new Error(`import exited ${imported.exitCode}: ${imported.stderr}`);
    const runId = /\b(\d{8}T\d{6}-[0-9a-f]+)\b/.exec(imported.stdout)?.[1];
    await until('third of the rows written', () => sandbox.stats().writesApplied >= rows / 3);
    const killedAt = Date.now();
    const sentBeforeKill = sandbox.requests().length;
    process.kill(workers[0]?.pid ?? 0, 'SIGKILL');
    const watch = await watchTakeover(bench.redis, PREFIX);
    const killedAtRow = sandbox.stats().writesApplied;
    await until('run done', async () => {
      const status = await runCli(['status', ...(runId ? [runId] : []), '--json'], env);
      return status.exitCode === 0 && (JSON.parse(status.stdout) as { state: string }).state === 'done';
    });
    const takenAt = await watch.stop();
    const products = sandbox.products(BENCH_SELLER);
    const exact = products.length === rows && new Set(products.map((p) => p.sku)).size === rows;
    if (!exact || takenAt.size === 0) {
      throw new Error(`not exact: ${products.length} products of ${rows}, ${takenAt.size} chunks taken back`);
    }
    const seconds = (Math.max(...takenAt.values()) - killedAt) / 1000;
    // The look-ups of the killed worker's creates: reads of the products (first page: no `page`) and their pages.
    const lists = sandbox
      .requests()
      .slice(sentBeforeKill)
      .filter((request) => request.method === 'GET' && request.path === '/products');
    const reads = lists.filter((request) => request.query.page === undefined).length;
    return {
      results: [
        {
          goal: 'worker killed mid-run: its chunks taken back',
          figure:
            `${seconds.toFixed(1)} s (${takenAt.size} chunks, killed at ${killedAtRow} of ${rows} rows), exact; ` +
            `after the kill ${reads} read${reads === 1 ? '' : 's'} of the products (${lists.length} pages)`,
          bound: '',
          pass: null,
          measured: { key: 'takeover-s', value: seconds },
        },
      ],
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await sandbox.close();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
