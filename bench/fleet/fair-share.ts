import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../../src/sandbox/index.js';
import { sellerQueueName, sellerRef } from '../../src/sellers/seller-ref.js';
import { writeGenericCatalog } from '../parse/generate-catalog.js';
import {
  type Build,
  importSellers,
  keyOf,
  loadMain,
  PREFIX,
  sellerEnv,
  sellerOf,
  spawnWorker,
  startFleetRedis,
  writeKeysFile,
} from './world.js';

export const LARGE_ROWS = 20_000;
export const SMALL_ROWS = 20;
export const LATENCY_MS = 20;
/** The small seller's import is queued this long after the large run's first row settled. */
export const SMALL_AFTER_MS = 3_000;
const LIMIT_MS = 60_000;

export interface FairShare {
  sellersAtOnce: string;
  /** From the small seller's `import` starting to its first product stored by the API (its first write). */
  firstWriteSeconds: number | null;
  /** From the same start to the small run's state `done`. */
  doneSeconds: number | null;
  /** The large run's rows settled, of its total, when the small seller's first write happened. */
  largeSettledThen: number;
  largeTotal: number;
  /** The large seller's queue just before the small import: jobs waiting, and active. */
  largeQueueThen: { waiting: number; active: number };
}

/**
 * Seller 0 imports 20,000 rows, a worker (`--concurrency 8`, sandbox latency 20 ms) runs them; 3 s
 * after its first row settled, seller 1 imports 20 rows. Polls every 10 ms: the sandbox's products of
 * seller 1 (in this process) and its run's state. The large run is not waited for.
 */
export async function measureFairShare(build: Build, sellersAtOnce: number | null): Promise<FairShare> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-fleet-fair-'));
  const redis = await startFleetRedis();
  const sandbox = await startSandbox({
    keys: [{ key: keyOf(0), seller: sellerOf(0) }],
    latencyMs: LATENCY_MS,
  });
  sandbox.addKey(keyOf(1), sellerOf(1));
  const at = sellersAtOnce === null ? [] : ['--sellers-at-once', String(sellersAtOnce)];
  const worker = { current: null as ReturnType<typeof spawnWorker> | null };
  try {
    const large = join(dir, 'large.csv');
    const small = join(dir, 'small.csv');
    await writeGenericCatalog(large, LARGE_ROWS);
    await writeGenericCatalog(small, SMALL_ROWS);
    await writeKeysFile(join(dir, 'keys'), 2);
    const main = await loadMain(build);
    const env = (i: number) => sellerEnv(redis.url, sandbox.baseUrl, i);
    const [largeId] = await importSellers(main, 'import', env, large, 0, 1, 1);
    const largeKey = `${PREFIX}:run:${largeId}`;
    worker.current = spawnWorker(build, ['--concurrency', '8', '--keys-file', join(dir, 'keys'), ...at], {
      SELLER_API_BASE_URL: sandbox.baseUrl,
      REDIS_URL: redis.url,
      CATALOG_SYNC_PREFIX: PREFIX,
      LOG_LEVEL: process.env.FLEET_WORKER_LOG ?? 'warn',
      PATH: process.env.PATH,
    });
    const giveUp = performance.now() + LIMIT_MS;
    while (Number((await redis.own.hget(largeKey, 'settled')) ?? 0) === 0) {
      if (performance.now() > giveUp)
        throw new Error(`the large run never started: ${worker.current.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, SMALL_AFTER_MS));
    const queue = `${PREFIX}:${sellerQueueName(sellerRef(sandbox.baseUrl, keyOf(0)))}`;
    const [waiting, active] = await Promise.all([
      redis.own.llen(`${queue}:wait`),
      redis.own.llen(`${queue}:active`),
    ]);
    const start = performance.now();
    const [smallId] = await importSellers(main, 'import', env, small, 1, 2, 1);
    const smallKey = `${PREFIX}:run:${smallId}`;
    const result: FairShare = {
      sellersAtOnce: sellersAtOnce === null ? 'default (4)' : String(sellersAtOnce),
      firstWriteSeconds: null,
      doneSeconds: null,
      largeSettledThen: 0,
      largeTotal: Number((await redis.own.hget(largeKey, 'total')) ?? 0),
      largeQueueThen: { waiting, active },
    };
    while (performance.now() < start + LIMIT_MS) {
      if (result.firstWriteSeconds === null && sandbox.products(sellerOf(1)).length > 0) {
        result.firstWriteSeconds = (performance.now() - start) / 1000;
        result.largeSettledThen = Number((await redis.own.hget(largeKey, 'settled')) ?? 0);
        result.largeTotal = Number((await redis.own.hget(largeKey, 'total')) ?? 0);
      }
      if ((await redis.own.hget(smallKey, 'state')) === 'done') {
        result.doneSeconds = (performance.now() - start) / 1000;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return result;
  } finally {
    await worker.current?.stop();
    await sandbox.close();
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
