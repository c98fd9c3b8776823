/**
 * What a seller's id map keeps in Redis per product as the catalog grows (issue 12): the buckets of
 * compact entries (src/sync/id-map-buckets.ts) against the old form (two hashes of JSON), for a
 * typical entry (sku as the key, a remembered name digest, a price) and for a rich one (eight fields
 * sent, an echo) whose entries pass the 64 bytes a listpack value may hold. Writes the entries
 * straight into a redis-server of its own, nothing synced. LISTPACK_ENTRIES sets its
 * hash-max-listpack-entries (this machine's build defaults to 512; upstream redis.conf says 128).
 *
 *   npm run build && LISTPACK_ENTRIES=128 node dist/bench/id-map-scale.js [port] [products, comma-separated]
 */

import type { Redis } from 'ioredis';
import { RedisKeys } from '../src/runs/keys.js';
import { idMapKeyOf, reverseKeyOf } from '../src/sync/id-map-buckets.js';
import { encodeKnown, type KnownProduct } from '../src/sync/id-map-entry.js';
import { startBenchRedis } from './goals/private-redis.js';

const REF = '0123456789abcdef';
const keys = new RedisKeys('scale');

function typical(i: number): [string, KnownProduct] {
  const key = `SKU-${String(i).padStart(7, '0')}`;
  return [key, { id: String(100_000 + i), sent: { sku: key, name: '#~ZQXhGhho_G', price: (i % 900) + 0.5 } }];
}

function rich(i: number): [string, KnownProduct] {
  const [key, product] = typical(i);
  Object.assign(product.sent, {
    quantity: i % 40,
    brand: 'Acme',
    description: '#~Ykh2hhWGZv',
    images: '#~jVqdUYr30e',
    category: 'Tools',
  });
  return [key, { ...product, echo: { price: 'abcDEF123_' } }];
}

async function bytesOf(
  redis: Redis,
  pattern: string,
): Promise<{ bytes: number; keys: number; listpacks: number }> {
  const out = { bytes: 0, keys: 0, listpacks: 0 };
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    for (const key of found) {
      out.bytes += Number(await redis.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
      out.keys++;
      if ((await redis.object('ENCODING', key)) === 'listpack') out.listpacks++;
    }
  } while (cursor !== '0');
  return out;
}

async function measure(redis: Redis, products: number, entry: (i: number) => [string, KnownProduct]) {
  for (const bucketed of [true, false]) {
    await redis.flushdb();
    for (let start = 0; start < products; start += 5000) {
      const pipeline = redis.pipeline();
      for (let i = start; i < Math.min(products, start + 5000); i++) {
        const [key, product] = entry(i);
        if (bucketed) {
          pipeline.hset(idMapKeyOf(keys, REF, key), key, encodeKnown(key, product));
          pipeline.hset(reverseKeyOf(keys, REF, product.id), product.id, key);
        } else {
          pipeline.hset(keys.oldIdMap(REF), key, JSON.stringify(product));
          pipeline.hset(keys.oldIdMapReverse(REF), product.id, key);
        }
      }
      await pipeline.exec();
    }
    const map = await bytesOf(redis, bucketed ? 'scale:seller:*:ids:*' : 'scale:seller:*:ids');
    const reverse = await bytesOf(redis, 'scale:seller:*:ids-reverse*');
    const perProduct = (bytes: number) => (bytes / products).toFixed(1);
    console.log(
      `| ${entry.name} | ${products} | ${bucketed ? 'buckets' : 'old form'} | ` +
        `${perProduct(map.bytes + reverse.bytes)} | ${perProduct(map.bytes)} | ${perProduct(reverse.bytes)} | ` +
        `${map.listpacks}/${map.keys} |`,
    );
  }
}

async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 6532);
  const sizes = (process.argv[3] ?? '20000,100000,200000,1000000').split(',').map(Number);
  const bench = await startBenchRedis(port);
  try {
    const entries = process.env.LISTPACK_ENTRIES;
    if (entries) await bench.redis.config('SET', 'hash-max-listpack-entries', entries);
    const [, limit] = (await bench.redis.config('GET', 'hash-max-listpack-entries')) as string[];
    console.log(`hash-max-listpack-entries ${limit}`);
    console.log(
      `entry bytes: typical ${encodeKnown(...typical(1)).length}, rich ${encodeKnown(...rich(1)).length}`,
    );
    console.log('| entry | products | form | B/product | map | reverse | map keys in listpack |');
    console.log('|---|---|---|---|---|---|---|');
    for (const products of sizes) {
      for (const entry of [typical, rich]) await measure(bench.redis, products, entry);
    }
  } finally {
    await bench.stop();
  }
}

await main();
