/**
 * Issue 12, "1M-row import": peak RSS of `import` and the producer's rows/s against raw csv-parse
 * of the same file. `import` runs as a child under `/usr/bin/time -v` (its peak RSS, user and
 * system CPU) while this process empties the seller's queue every 20 ms, as instant workers would:
 * the producer reads the whole source without waiting at the high-water mark, and no request is sent.
 * csv-parse alone runs in a child too, on the same file, in the same run (timings are ratios).
 *
 *   npm run build && REDIS_URL=redis://127.0.0.1:6541 node dist/bench/producer-import.js [rows]
 *
 * IMPORT_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR' writes a CPU profile of `import` alone;
 * IMPORT_OUTPUT=FILE keeps what `import` printed (e.g. with IMPORT_NODE_ARGS=--trace-gc).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { parse } from 'csv-parse';
import { Redis } from 'ioredis';
import { projectRoot } from '../src/project-root.js';
import { sellerQueueName, sellerRef } from '../src/sellers/seller-ref.js';
import { startSandboxProcess } from './big-import/processes.js';
import { usedMemory } from './big-import/redis-memory.js';
import { writeGenericCatalog } from './parse/generate-catalog.js';
import { mib } from './parse/measure.js';
import { removeKeys } from './sync/redis-info.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const KEY = 'sk_bench_producer';

interface Timed {
  seconds: number;
  userSeconds: number;
  systemSeconds: number;
  peakRss: number;
  output: string;
}

/** `node args…` under `/usr/bin/time -v`: wall time, CPU time and peak RSS of the child. */
async function timed(args: string[], env: NodeJS.ProcessEnv): Promise<Timed> {
  const started = performance.now();
  const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], { env, stdio: 'pipe' });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}:\n${output}`);
  const field = (name: string) => Number(new RegExp(`${name}: ([\\d.]+)`).exec(output)?.[1] ?? Number.NaN);
  return {
    seconds,
    userSeconds: field('User time \\(seconds\\)'),
    systemSeconds: field('System time \\(seconds\\)'),
    peakRss: field('Maximum resident set size \\(kbytes\\)') * 1024,
    output,
  };
}

async function parseOnly(path: string): Promise<number> {
  let rows = 0;
  for await (const _ of createReadStream(path).pipe(parse({ from_line: 2 }))) rows++;
  return rows;
}

async function main(): Promise<void> {
  if (process.argv[2] === '--parse-only') {
    console.log(`rows ${await parseOnly(process.argv[3] ?? '')}`);
    return;
  }
  const rows = Number(process.argv[2] ?? 1_000_000);
  const dir = await mkdtemp(join(tmpdir(), 'bench-producer-'));
  const path = join(dir, 'catalog.csv');
  const prefix = `bench-producer-${randomBytes(4).toString('hex')}`;
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const sandbox = await startSandboxProcess(KEY, 'bench-seller');
  let draining = true;
  try {
    await writeGenericCatalog(path, rows);
    const parsed = await timed([fileURLToPath(import.meta.url), '--parse-only', path], process.env);

    const queue = new Queue(sellerQueueName(sellerRef(sandbox.baseUrl, KEY)), { connection: redis, prefix });
    const baseline = await usedMemory(redis);
    let redisPeak = 0;
    let waitingPeak = 0;
    const drainer = (async () => {
      while (draining) {
        waitingPeak = Math.max(waitingPeak, await queue.getJobCountByTypes('wait'));
        await queue.drain();
        redisPeak = Math.max(redisPeak, (await usedMemory(redis)) - baseline);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const nodeArgs = process.env.IMPORT_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const imported = await timed([...nodeArgs, join(projectRoot(), 'bin/catalog-sync.js'), 'import', path], {
      PATH: process.env.PATH,
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: KEY,
      REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    });
    draining = false;
    await drainer;
    // With IMPORT_NODE_ARGS='--trace-gc' and the like: what the child printed, to read afterwards.
    if (process.env.IMPORT_OUTPUT) await writeFile(process.env.IMPORT_OUTPUT, imported.output);
    await queue.close();

    const rate = (seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');
    const cpu = (t: Timed) => t.userSeconds + t.systemSeconds;
    console.log(`${rows} rows, node ${process.version}, Redis at ${REDIS_URL}`);
    console.log('| measure | csv-parse alone | `import` (queue emptied as it fills) |');
    console.log('|---|---|---|');
    console.log(`| wall | ${parsed.seconds.toFixed(1)} s | ${imported.seconds.toFixed(1)} s |`);
    console.log(`| CPU (user + system) | ${cpu(parsed).toFixed(1)} s | ${cpu(imported).toFixed(1)} s |`);
    console.log(`| rows/s (wall) | ${rate(parsed.seconds)} | ${rate(imported.seconds)} |`);
    console.log(`| peak RSS | ${mib(parsed.peakRss)} | ${mib(imported.peakRss)} |`);
    console.log(`producer/csv-parse rows/s (wall): ${(parsed.seconds / imported.seconds).toFixed(2)}`);
    console.log(`producer/csv-parse rows per CPU second: ${(cpu(parsed) / cpu(imported)).toFixed(2)}`);
    console.log(`Redis used_memory peak over baseline: ${mib(redisPeak)}; waiting jobs peak ${waitingPeak}`);
  } finally {
    draining = false;
    await sandbox.stop();
    await removeKeys(REDIS_URL, `${prefix}:`);
    await redis.quit();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
