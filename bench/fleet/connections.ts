import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { writeGenericCatalog } from '../parse/generate-catalog.js';
import { runsDone, type Watch, watchWorker } from './sampler.js';
import {
  type Build,
  importSellers,
  keyOf,
  loadMain,
  PREFIX,
  redisCpuSeconds,
  sellerEnv,
  sellerOf,
  spawnWorker,
  startFleetRedis,
  variableOf,
  writeKeysFile,
} from './world.js';

export const IDLE_MS = 15_000;
/** Before the idle window: the worker's start (connections, first reads) is not idling. */
const SETTLE_MS = 3_000;
export const ROWS_PER_RUN = 5;

export interface FleetFigures {
  build: string;
  sellers: number;
  /** How the sellers were registered, and how long that took. */
  registerSeconds: number;
  busy: (Watch & { seconds: number; runsDone: number }) | { failed: string };
  idle: (Watch & { redisCpuPercent: number }) | { failed: string };
}

/**
 * One build, `sellers` sellers, each registered by a `run` of 5 rows synced to the end (in this
 * process, 25 at a time). Idle: a `worker` (child process) with nothing queued, 3 s to start, then
 * 15 s watched (Redis CPU over those 15 s). Busy: one more 5-row run each queued by `import`, then a
 * fresh `worker` until every run is done or `busyLimitMs` passed. The sandbox runs in this process.
 */
export async function measureFleet(
  build: Build,
  sellers: number,
  busyLimitMs: number,
): Promise<FleetFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-fleet-'));
  const redis = await startFleetRedis();
  const sandbox = await startSandbox({ keys: [{ key: keyOf(0), seller: sellerOf(0) }] });
  try {
    for (let i = 1; i < sellers; i++) sandbox.addKey(keyOf(i), sellerOf(i));
    const csv = join(dir, 'catalog.csv');
    await writeGenericCatalog(csv, ROWS_PER_RUN);
    const main = await loadMain(build);
    const sellerEnvOf = (i: number) => sellerEnv(redis.url, sandbox.baseUrl, i);
    // Registered by a `run` each, synced to the end in this process: every seller has a finished run.
    const registerStart = performance.now();
    await importSellers(main, 'run', sellerEnvOf, csv, 0, sellers);
    const registerSeconds = (performance.now() - registerStart) / 1000;

    const env = workerEnv(build, redis.url, sandbox.baseUrl, sellers);
    const args = build.label === 'this' ? ['--keys-file', join(dir, 'keys')] : [];
    if (build.label === 'this') await writeKeysFile(join(dir, 'keys'), sellers);

    const idle = await (async () => {
      const worker = spawnWorker(build, args, env);
      try {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const cpuBefore = await redisCpuSeconds(redis);
        const windowStart = performance.now();
        const watch = await watchWorker(
          redis,
          worker.pid,
          async () => performance.now() - windowStart >= IDLE_MS,
          500,
        );
        const cpu = (await redisCpuSeconds(redis)) - cpuBefore;
        const seconds = (performance.now() - windowStart) / 1000;
        return { ...watch, redisCpuPercent: (100 * cpu) / seconds };
      } catch (error) {
        return {
          failed: `${String(error)}; worker said: ${worker.output().trim().split('\n').slice(-3).join(' | ')}`,
        };
      } finally {
        await worker.stop();
      }
    })();

    // Then a second run each, queued by `import` with no worker running, for the busy part.
    const runIds = await importSellers(main, 'import', sellerEnvOf, csv, 0, sellers);
    const runKeys = runIds.map((id) => `${PREFIX}:run:${id}`);
    const busy = await (async () => {
      const worker = spawnWorker(build, args, env);
      const started = performance.now();
      let done = 0;
      try {
        const watch = await watchWorker(redis, worker.pid, async () => {
          done = await runsDone(redis, runKeys);
          return done === sellers || performance.now() - started > busyLimitMs;
        });
        return { ...watch, seconds: (performance.now() - started) / 1000, runsDone: done };
      } catch (error) {
        return {
          failed: `${String(error)}; worker said: ${worker.output().trim().split('\n').slice(-3).join(' | ')}`,
        };
      } finally {
        await worker.stop();
      }
    })();
    return { build: build.label, sellers, registerSeconds, busy, idle };
  } finally {
    await sandbox.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * This build reads the keys from `--keys-file`; the old design had none, so its worker gets every
 * seller's key variable in its environment (what a fleet of the old design needed).
 */
function workerEnv(build: Build, redisUrl: string, baseUrl: string, sellers: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    SELLER_API_BASE_URL: baseUrl,
    REDIS_URL: redisUrl,
    CATALOG_SYNC_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
    PATH: process.env.PATH,
  };
  if (build.label !== 'this') for (let i = 0; i < sellers; i++) env[variableOf(i)] = keyOf(i);
  return env;
}
