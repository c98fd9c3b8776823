import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { DEFAULT_HIGH_WATER } from '../../src/defaults.js';
import { RedisKeys } from '../../src/runs/keys.js';
import { RunStore } from '../../src/runs/run-store.js';
import { sellerQueueName, sellerRef } from '../../src/sellers/seller-ref.js';
import { writeGenericCatalog } from '../parse/generate-catalog.js';
import { runCli } from '../sync/cli-run.js';
import { removeKeys } from '../sync/redis-info.js';
import { type CliProcess, processMemory, spawnCli, startSandboxProcess } from './processes.js';
import { type PrefixMemory, prefixMemory, runKeyMemory, usedMemory } from './redis-memory.js';
import { Sampler } from './sampler.js';

const KEY = 'sk_bench_big_import';
const SELLER = 'bench-seller';
/** The producer counts as blocked once the rows read stay the same this long with the queue full. */
const STILL_MS = 2000;
/** How long the blocked producer is watched to show that memory stays flat. */
const PLATEAU_MS = 4000;

export interface ScenarioResult {
  rows: number;
  blocked: { rowsRead: number; waitingJobs: number; seconds: number } | null;
  plateau: { importerRssGrowth: number; queueGrowth: number; importerRssPeak: number; redisUsedPeak: number };
  importerRssPeak: number;
  workerRssPeak: number;
  sandboxRssPeak: number;
  queuePeak: number;
  eventsPeak: number;
  /** INFO used_memory, over the baseline taken before `import` (the server may have other users). */
  redisUsedPeakBlocked: number;
  redisUsedPeakSyncing: number;
  redisUsedAfter: number;
  kept: PrefixMemory;
  /** The kept run data by key (outcomes, products, source-keys, …), exact. */
  keptRunKeys: Record<string, number>;
  /** From the worker's start to the run's end. */
  syncSeconds: number;
  /** From `import` to the run's end, the blocked wait included. */
  totalSeconds: number;
}

async function pollUntil(what: string, timeoutMs: number, check: () => Promise<boolean> | boolean) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * One big import: `import` in this process with no worker until the producer blocks, then a
 * `worker` process until the run is done. Every key under `prefix` is removed at the end.
 */
export async function runScenario(rows: number, prefix: string, redisUrl: string): Promise<ScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-big-import-'));
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const keys = new RedisKeys(prefix);
  let sandbox: (CliProcess & { baseUrl: string }) | null = null;
  let worker: CliProcess | null = null;
  let sampler: Sampler | null = null;
  try {
    const path = join(dir, 'catalog.csv');
    await writeGenericCatalog(path, rows);
    sandbox = await startSandboxProcess(KEY, SELLER);
    const env = {
      SELLER_API_BASE_URL: sandbox.baseUrl,
      SELLER_API_KEY: KEY,
      REDIS_URL: redisUrl,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'silent',
      PATH: process.env.PATH,
    };
    const queue = sellerQueueName(sellerRef(sandbox.baseUrl, KEY));
    const baseline = await usedMemory(redis);
    sampler = new Sampler(redis, keys, `${prefix}:${queue}:wait`, sandbox.pid);
    const watch = sampler;
    watch.start();
    const started = Date.now();

    let imported: Awaited<ReturnType<typeof runCli>> | null = null;
    const importing = runCli(['import', path], env).then((result) => {
      imported = result;
      return result;
    });
    let still = { rowsRead: -1, since: Date.now() };
    await pollUntil('the producer blocks or the import ends', 120_000, () => {
      const latest = watch.latest();
      if (imported) return true;
      if (!latest || latest.rowsRead !== still.rowsRead) {
        still = { rowsRead: latest?.rowsRead ?? -1, since: Date.now() };
        return false;
      }
      return latest.waitingJobs >= DEFAULT_HIGH_WATER && Date.now() - still.since >= STILL_MS;
    });
    const blocked = imported
      ? null
      : { rowsRead: still.rowsRead, waitingJobs: watch.latest()?.waitingJobs ?? 0, seconds: 0 };
    if (blocked) {
      blocked.seconds = (still.since - started) / 1000;
      watch.phase = 'blocked';
      await new Promise((resolve) => setTimeout(resolve, PLATEAU_MS));
    }
    const plateau = watch.of('blocked');
    const first = plateau[0];
    const last = plateau.at(-1);

    worker = spawnCli(['worker'], env);
    watch.workerPid = worker.pid;
    watch.phase = 'syncing';
    const workerStarted = Date.now();
    const result = await importing;
    if (result.exitCode !== 0) throw new Error(`import exited ${result.exitCode}:\n${result.stderr}`);
    const runId = result.stdout.trim();
    const runs = new RunStore(redis, keys);
    await pollUntil(
      `run ${runId} is done`,
      15 * 60_000,
      async () => (await runs.get(runId))?.state === 'done',
    );
    const run = await runs.get(runId);
    if (run?.counts['pair:create:ok'] !== rows) {
      throw new Error(`run ${runId} ended with ${JSON.stringify(run?.counts)}, expected ${rows} created`);
    }
    watch.phase = 'after';
    const workerHwm = (await processMemory(worker.pid))?.hwm ?? 0;
    const sandboxHwm = (await processMemory(sandbox.pid))?.hwm ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    watch.stop();
    await worker.stop();
    worker = null;

    return {
      rows,
      blocked,
      plateau: {
        importerRssGrowth: first && last ? last.importerRss - first.importerRss : 0,
        queueGrowth: first && last ? last.prefix.queue - first.prefix.queue : 0,
        importerRssPeak: watch.peak(['filling', 'blocked'], (s) => s.importerRss),
        redisUsedPeak: watch.peak(['filling', 'blocked'], (s) => s.redisUsed) - baseline,
      },
      importerRssPeak: watch.peak(['filling', 'blocked', 'syncing'], (s) => s.importerRss),
      workerRssPeak: Math.max(
        workerHwm,
        watch.peak(['syncing'], (s) => s.workerRss),
      ),
      sandboxRssPeak: Math.max(
        sandboxHwm,
        watch.peak(['syncing'], (s) => s.sandboxRss),
      ),
      queuePeak: watch.peak(['filling', 'blocked', 'syncing'], (s) => s.prefix.queue),
      eventsPeak: watch.peak(['filling', 'blocked', 'syncing'], (s) => s.prefix.events),
      redisUsedPeakBlocked: watch.peak(['filling', 'blocked'], (s) => s.redisUsed) - baseline,
      redisUsedPeakSyncing: watch.peak(['syncing'], (s) => s.redisUsed) - baseline,
      redisUsedAfter: (await usedMemory(redis)) - baseline,
      kept: await prefixMemory(redis, prefix, true),
      keptRunKeys: await runKeyMemory(redis, prefix),
      syncSeconds: ((run.finishedAt ?? Date.now()) - workerStarted) / 1000,
      totalSeconds: ((run.finishedAt ?? Date.now()) - started) / 1000,
    };
  } finally {
    sampler?.stop();
    await worker?.stop();
    await sandbox?.stop();
    await removeKeys(redisUrl, `${prefix}:`);
    await redis.quit();
    await rm(dir, { recursive: true, force: true });
  }
}
