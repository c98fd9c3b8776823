import type { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { useOwnRedis } from '../support/own-redis.js';
import { bySku, usePipeline } from '../support/pipeline.js';

const SELLERS = 300;
const ROWS = 3;
/** The worker's connections: BullMQ's, the tool's own, the scheduled imports' and 4 seller queues. */
const CONNECTION_BOUND = 10;

const sellerName = (i: number) => `fleet-${String(i).padStart(3, '0')}`;
const keyOf = (i: number) => `sk_fleet_${String(i).padStart(3, '0')}`;
const variableOf = (i: number) => `SELLER_API_KEY_FLEET_${String(i).padStart(3, '0')}`;

/** Connections to `redis` other than `redis`'s own. */
async function othersConnected(redis: Redis, ownId: number): Promise<number> {
  const list = (await redis.client('LIST')) as string;
  return list.split('\n').filter((line) => line.startsWith('id=') && !line.startsWith(`id=${ownId} `)).length;
}

describe('one worker with 300 sellers registered', () => {
  const own = useOwnRedis();
  const pipeline = usePipeline();
  let redis: Redis;

  beforeEach(() => {
    redis = own.redis.client();
  });
  afterEach(async () => {
    await redis.quit();
  });

  it('holds a fixed number of Redis connections, and ends every run exact', {
    timeout: 240_000,
  }, async () => {
    const env = { REDIS_URL: own.redis.url };
    const runIds: string[] = [];
    const catalogs = new Map<number, ReturnType<typeof catalogRows>>();
    for (let start = 0; start < SELLERS; start += 10) {
      const batch = Array.from({ length: 10 }, (_, j) => start + j);
      const results = await Promise.all(
        batch.map(async (i) => {
          pipeline.sandbox.addKey(keyOf(i), sellerName(i));
          const rows = catalogRows(ROWS).map((row) => ({ ...row, name: `${sellerName(i)} ${row.name}` }));
          catalogs.set(i, rows);
          return pipeline.cli(['import', await pipeline.csv(`${sellerName(i)}.csv`, rows)], {
            ...env,
            SELLER_API_KEY: keyOf(i),
          });
        }),
      );
      for (const result of results) {
        expect(result.code, result.stderr).toBe(0);
        runIds.push(runIdOf(result.stdout));
      }
    }
    const ownId = Number(await redis.client('ID'));
    expect(await othersConnected(redis, ownId)).toBe(0);

    const keys = Object.fromEntries(Array.from({ length: SELLERS }, (_, i) => [variableOf(i), keyOf(i)]));
    const worker = pipeline.spawn(['worker'], { ...env, ...keys });
    let most = 0;
    const runKeys = runIds.map((id) => `${pipeline.prefix}:run:${id}`);
    for (let done = 0; done < SELLERS; ) {
      if (worker.process.exitCode !== null) throw new Error(`the worker exited: ${worker.stderr()}`);
      most = Math.max(most, await othersConnected(redis, ownId));
      const states = await Promise.all(runKeys.map((key) => redis.hget(key, 'state')));
      done = states.filter((state) => state === 'done').length;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    worker.process.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);

    expect(most).toBeGreaterThan(2);
    expect(most).toBeLessThanOrEqual(CONNECTION_BOUND);
    for (let i = 0; i < SELLERS; i++) {
      const stored = bySku(pipeline.products(sellerName(i)));
      expect(stored.size).toBe(ROWS);
      for (const row of catalogs.get(i) ?? []) expect(stored.get(row.sku)?.name).toBe(row.name);
    }
    const stats = pipeline.sandbox.stats();
    expect(stats.byRoute['POST /products']).toBe(SELLERS * ROWS);
    expect(stats.byRoute['PUT /products'] ?? 0).toBe(0);
  });
});
