/**
 * Issue 12, goal 5, the other side of the import's floor: the producer queueing rows that are
 * already mapped, with nothing to read or parse. The rows are made in memory as the generic preset
 * makes them from bench/parse/generate-catalog.ts's file (upserts with their raw values), and
 * produceChunks writes them into a seller queue in Redis while this process empties the queue
 * every 20 ms, as instant workers would. Against csv-parse alone on the same file, in the same run.
 *
 * Reading and mapping on one thread and queueing on another could reach, at best, the slower of
 * this and the read-map-validate floor (`node dist/bench/goals.js 5` prints it).
 *
 *   npm run build && REDIS_URL=redis://127.0.0.1:6379 node dist/bench/producer-queue.js [rows]
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { MappedRow, ProductUpsert } from '../src/interfaces.js';
import { produceChunks } from '../src/queue/producer.js';
import { queueOptions } from '../src/queue/queue-options.js';
import type { ChunkJobData } from '../src/runs/chunk-job.js';
import { RedisKeys } from '../src/runs/keys.js';
import { RunStore } from '../src/runs/run-store.js';
import type { SourceRows } from '../src/runs/source-rows.js';
import { GENERIC_COLUMNS, genericRowValues, writeGenericCatalog } from './parse/generate-catalog.js';
import { parseOnly } from './parse/measure.js';
import { removeKeys } from './sync/redis-info.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Row `i` of the generated catalog as the generic preset maps it (a blank brand left out), and its raw values. */
function mappedRow(i: number): { row: ProductUpsert; values: string[] } {
  const values = genericRowValues(i);
  const [sku = '', name = '', price = '', quantity = '', brand = '', description = ''] = values;
  const fields: ProductUpsert['fields'] = { sku, name, price: Number(price), quantity: Number(quantity) };
  if (brand) fields.brand = brand;
  fields.description = description;
  const row: ProductUpsert = { kind: 'upsert', row: i, line: i + 1, key: sku, fields };
  return { row, values };
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 300_000);
  const dir = await mkdtemp(join(tmpdir(), 'bench-producer-queue-'));
  const path = join(dir, 'catalog.csv');
  const prefix = `bench-producer-queue-${randomBytes(4).toString('hex')}`;
  // Two connections, as the CLI has them: BullMQ's, and the tool's own commands (runtime.ts).
  const bullmq = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const commands = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const keys = new RedisKeys(prefix);
  const runs = new RunStore(commands, keys);
  const queue = new Queue<ChunkJobData>('bench-producer-queue', queueOptions(bullmq, prefix));
  let draining = true;
  try {
    await writeGenericCatalog(path, rows);
    let started = performance.now();
    if ((await parseOnly(path)) !== rows) throw new Error(`csv-parse did not read ${rows} rows`);
    const parseSeconds = (performance.now() - started) / 1000;

    const run = await runs.create({
      source: path,
      sourceId: null,
      sellerRef: 'bench-producer-queue',
      baseUrl: 'http://127.0.0.1:1/api/v1',
      keyEnv: 'SELLER_API_KEY',
      matchBy: 'sku',
      dryRun: false,
      dailyReset: '00:00',
      dailyBudget: null,
      allowInsecure: false,
      preset: 'generic',
      fields: null,
    });
    const pending = new Map<number, string[]>();
    async function* mapped(): AsyncGenerator<MappedRow> {
      for (let i = 1; i <= rows; i++) {
        const { row, values } = mappedRow(i);
        pending.set(i, values);
        yield row;
      }
    }
    let headerGiven = false;
    const sourceRows: SourceRows = {
      delimiter: ',',
      take(row) {
        const values = pending.get(row);
        pending.delete(row);
        return values;
      },
      headerChange() {
        if (headerGiven) return null;
        headerGiven = true;
        return GENERIC_COLUMNS;
      },
    };
    const drainer = (async () => {
      while (draining) {
        await queue.drain();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const cpu = process.cpuUsage();
    started = performance.now();
    await produceChunks({ redis: commands, keys, runs, queue, runId: run.id, rows: mapped(), sourceRows });
    const queueSeconds = (performance.now() - started) / 1000;
    const { user, system } = process.cpuUsage(cpu);
    draining = false;
    await drainer;

    const rate = (seconds: number) => Math.round(rows / seconds).toLocaleString('en-US');
    console.log(`${rows} rows, node ${process.version}, Redis at ${REDIS_URL}`);
    console.log(
      `csv-parse alone:                   ${rate(parseSeconds)} rows/s (${parseSeconds.toFixed(1)} s)`,
    );
    console.log(
      `queueing rows mapped beforehand:   ${rate(queueSeconds)} rows/s (${queueSeconds.toFixed(1)} s, ` +
        `${((user + system) / 1e6).toFixed(1)} s of CPU in this process, the drain's included)`,
    );
    console.log(`queueing/csv-parse rows/s:         ${(parseSeconds / queueSeconds).toFixed(2)}`);
  } finally {
    draining = false;
    await queue.close();
    await removeKeys(REDIS_URL, `${prefix}:`);
    await bullmq.quit();
    await commands.quit();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
