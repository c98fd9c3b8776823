import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CHUNK_SIZE, DEFAULT_HIGH_WATER } from '../../src/defaults.js';
import { RedisKeys } from '../../src/runs/keys.js';
import { sellerQueueName, sellerRef } from '../../src/sellers/seller-ref.js';
import { spawnCli, startSandboxProcess } from '../big-import/processes.js';
import { writeGenericCatalog } from '../parse/generate-catalog.js';
import { BENCH_KEY, BENCH_SELLER, importEnv } from './measured-sync.js';
import { startBenchRedis, usedMemory } from './private-redis.js';
import { count, type GoalReport, mib } from './result.js';
import { QUICK } from './scale.js';

const PREFIX = 'bench-goals';
/** The producer counts as stopped once the rows read stay the same this long. */
const STILL_MS = 3000;
const LIMIT_MS = QUICK ? 30_000 : 60_000;

/**
 * Goal 4: `import` (a child process) of 60,000 rows into a seller whose daily limit has paused it
 * (`paused-until` set an hour ahead, as a 429 would), no worker running, Redis private on port 6554.
 * Every 200 ms: waiting jobs, rows read (the run's total) and used_memory. It ends when `import`
 * exits, when the rows read stop moving for 3 s, or after 60 s; the verdict is from what it saw.
 */
export async function measurePausedBackpressure(): Promise<GoalReport> {
  // Above the mark (200 jobs × 100 rows) even in quick mode, or there would be nothing to see.
  const rows = QUICK ? 30_000 : 60_000;
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-paused-'));
  const bench = await startBenchRedis(6554);
  const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER);
  const keys = new RedisKeys(PREFIX);
  try {
    const path = join(dir, 'catalog.csv');
    await writeGenericCatalog(path, rows);
    const ref = sellerRef(sandbox.baseUrl, BENCH_KEY);
    await bench.redis.set(keys.pausedUntil(ref), String(Date.now() + 3_600_000), 'PX', 3_600_000);
    const waitList = `${PREFIX}:${sellerQueueName(ref)}:wait`;
    const baseline = await usedMemory(bench.redis);
    const started = Date.now();
    const importer = spawnCli(['import', path], importEnv(sandbox.baseUrl, bench.url, PREFIX));
    let gone = false;
    void importer.exited.then(() => {
      gone = true;
    });
    let maxWaiting = 0;
    let maxUsed = 0;
    let rowsRead = 0;
    let still = { rowsRead: -1, since: Date.now() };
    let ended = 'time limit';
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const [runId] = await bench.redis.zrevrange(keys.runs, 0, 0);
      const [waiting, total, used] = await Promise.all([
        bench.redis.llen(waitList),
        runId ? bench.redis.hget(keys.run(runId), 'total') : null,
        usedMemory(bench.redis),
      ]);
      maxWaiting = Math.max(maxWaiting, waiting);
      maxUsed = Math.max(maxUsed, used - baseline);
      rowsRead = Math.max(rowsRead, Number(total ?? 0));
      if (gone) {
        ended = '`import` exited';
        break;
      }
      if (rowsRead !== still.rowsRead) still = { rowsRead, since: Date.now() };
      else if (Date.now() - still.since >= STILL_MS) {
        ended = `rows read still for ${STILL_MS / 1000} s`;
        break;
      }
      if (Date.now() - started > LIMIT_MS) break;
    }
    await importer.stop();
    const markRows = DEFAULT_HIGH_WATER * DEFAULT_CHUNK_SIZE;
    return {
      results: [
        {
          goal: `4. backpressure: import ${count(rows)} rows, seller paused, no worker`,
          figure: `max ${count(maxWaiting)} waiting jobs, ${count(rowsRead)} rows read, Redis +${mib(maxUsed)}`,
          bound: `≤ ${DEFAULT_HIGH_WATER} jobs (${count(markRows)} rows)`,
          pass: maxWaiting <= DEFAULT_HIGH_WATER,
          note: `watched ${((Date.now() - started) / 1000).toFixed(0)} s, until ${ended}`,
        },
      ],
    };
  } finally {
    await sandbox.stop();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
