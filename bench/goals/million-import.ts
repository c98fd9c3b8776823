import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { sellerQueueName, sellerRef } from '../../src/sellers/seller-ref.js';
import { spawnCli, startSandboxProcess } from '../big-import/processes.js';
import { writeGenericCatalog } from '../parse/generate-catalog.js';
import { parseMapValidate } from '../parse/map-validate.js';
import { parseOnly } from '../parse/measure.js';
import { maxRssFlags, maxRssOf } from './max-rss.js';
import { BENCH_KEY, BENCH_SELLER, importEnv } from './measured-sync.js';
import { startBenchRedis } from './private-redis.js';
import { count, type GoalReport, mib } from './result.js';
import { scaled } from './scale.js';

const PREFIX = 'bench-goals';
const MAX_RSS = 200 * 1000 * 1000;
const MIN_PARSE_SHARE = 0.5;

/**
 * Goal 5: `import` (a child process) of a 1,000,000-row generic catalog (BENCH_ROWS to change it),
 * Redis private on port 6555. No worker syncs: the bench empties the seller's waiting list every
 * 50 ms (BullMQ `drain`), so the producer runs at its own speed rather than the API's. Its rows/s
 * (spawn to exit) is set against csv-parse alone on the same file, in the same run.
 */
export async function measureMillionImport(): Promise<GoalReport> {
  const rows = Number(process.env.BENCH_ROWS ?? scaled(1_000_000));
  const dir = await mkdtemp(join(tmpdir(), 'bench-goals-million-'));
  const bench = await startBenchRedis(6555);
  const sandbox = await startSandboxProcess(BENCH_KEY, BENCH_SELLER);
  const queue = new Queue(sellerQueueName(sellerRef(sandbox.baseUrl, BENCH_KEY)), {
    connection: bench.redis,
    prefix: PREFIX,
  });
  let draining: NodeJS.Timeout | null = null;
  try {
    const path = join(dir, 'catalog.csv');
    await writeGenericCatalog(path, rows);
    let started = performance.now();
    if ((await parseOnly(path)) !== rows) throw new Error(`csv-parse did not read ${rows} rows`);
    const parseRate = rows / ((performance.now() - started) / 1000);
    // The floor under the import's rows/s: what it does before the queue, with no Redis, no job and
    // no process to start (the bare client of goal 1 is the same kind of floor).
    started = performance.now();
    const mapped = await parseMapValidate(path);
    const mapRate = rows / ((performance.now() - started) / 1000);
    if (Object.values(mapped).reduce((a, b) => a + b, 0) !== rows)
      throw new Error(`the mapper did not read ${rows} rows`);

    const nodeFlags = await maxRssFlags(dir);
    let busy = false;
    draining = setInterval(() => {
      if (busy) return;
      busy = true;
      queue
        .drain()
        .catch(() => undefined)
        .finally(() => {
          busy = false;
        });
    }, 50);
    started = performance.now();
    const importer = spawnCli(['import', path], importEnv(sandbox.baseUrl, bench.url, PREFIX), nodeFlags);
    const code = await importer.exited;
    const importRate = rows / ((performance.now() - started) / 1000);
    if (code !== 0) throw new Error(`import exited ${code}:\n${importer.output()}`);
    const peakRss = maxRssOf(importer.output());
    const share = importRate / parseRate;
    return {
      results: [
        {
          goal: `5. import of ${count(rows)} rows: peak RSS`,
          figure: `${(peakRss / 1e6).toFixed(0)} MB (${mib(peakRss)})`,
          bound: `< ${MAX_RSS / 1e6} MB`,
          pass: peakRss < MAX_RSS,
          measured: { key: 'import-peak-rss-mb', value: peakRss / 1e6 },
        },
        {
          goal: `5. import of ${count(rows)} rows: producer rows/s`,
          figure: `${count(importRate)} rows/s = ${share.toFixed(2)} × csv-parse (${count(parseRate)} rows/s)`,
          bound: `≥ ${MIN_PARSE_SHARE} ×`,
          pass: share >= MIN_PARSE_SHARE,
          note: 'no worker: the bench empties the waiting list every 50 ms; rows/s from spawn to exit',
        },
        {
          goal: `5. the same file read, mapped and validated alone`,
          figure: `${count(mapRate)} rows/s = ${(mapRate / parseRate).toFixed(2)} × csv-parse; the import runs at ${(importRate / mapRate).toFixed(2)} × this`,
          bound: '(reported)',
          pass: null,
          note:
            'openSource and the mapper with its checks in the bench process, nothing written: the part of the ' +
            'import that comes before the queue, which the bound leaves at most twice the time of csv-parse alone',
        },
      ],
    };
  } finally {
    if (draining) clearInterval(draining);
    await queue.close();
    await sandbox.stop();
    await bench.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
