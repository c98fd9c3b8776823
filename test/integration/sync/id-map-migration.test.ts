import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { CreateClaims } from '../../../src/sync/create-claims.js';
import { IdMap, type KnownProduct } from '../../../src/sync/id-map.js';
import { usePrefixedClients } from '../support/redis-prefix.js';

const REF = 'migrating-seller';

/** What a version before buckets wrote: two hashes of the seller, JSON values. */
async function writeOldForm(redis: Redis, keys: RedisKeys, entries: Record<string, KnownProduct>) {
  const pairs = Object.entries(entries);
  await redis.hset(keys.oldIdMap(REF), ...pairs.flatMap(([key, product]) => [key, JSON.stringify(product)]));
  await redis.hset(keys.oldIdMapReverse(REF), ...pairs.flatMap(([key, product]) => [product.id, key]));
}

describe('an id map of the old form (one hash of JSON)', () => {
  const own = usePrefixedClients();
  // A client of its own per process: each checks the old form once.
  const client = own.client;
  let keys: RedisKeys;
  beforeEach(() => {
    keys = new RedisKeys(own.prefix);
  });

  it('is moved into the buckets whole on first use, every entry read as before', async () => {
    const setup = client();
    const entries: Record<string, KnownProduct> = {};
    for (let i = 0; i < 2500; i++) {
      entries[`SKU-${i}`] = {
        id: String(1000 + i),
        sent: { sku: `SKU-${i}`, name: `#~digest${i}`, price: i + 0.5 },
        ...(i % 7 === 0 ? { echo: { price: '?' }, unapplied: ['name'] } : {}),
      };
    }
    await writeOldForm(setup, keys, entries);

    // Three processes at once: one moves the map, the others wait for it; none reads half of it.
    const maps = [client(), client(), client()].map((redis) => new IdMap(redis, keys, REF));
    const read = await Promise.all(maps.map((map) => map.getMany(Object.keys(entries))));
    for (const found of read) expect(Object.fromEntries(found)).toEqual(entries);
    expect(await setup.exists(keys.oldIdMap(REF), keys.oldIdMapReverse(REF))).toBe(0);
    expect(await setup.exists(keys.idMapMigration(REF))).toBe(0);

    const byId = await maps[0]?.keysOfIds(['1000', '3499', '99']);
    expect(Object.fromEntries(byId ?? [])).toEqual({ '1000': 'SKU-0', '3499': 'SKU-2499' });
  });

  it('is moved before a create claims a key: a product created before the upgrade is known', async () => {
    const setup = client();
    const product = { id: '42', sent: { sku: 'A', name: 'Old' } };
    await writeOldForm(setup, keys, { A: product });
    const claim = await new CreateClaims(client(), keys, REF).claim('A', 'run-1');
    expect(claim).toEqual({ kind: 'known', product });
  });

  it('leaves an entry already written in buckets as it is, and drops what is not an entry', async () => {
    const setup = client();
    const newer = { id: '8', sent: { name: 'new' } };
    await new IdMap(client(), keys, REF).remember('A', newer);
    await writeOldForm(setup, keys, { A: { id: '7', sent: { name: 'old' } } });
    await setup.hset(keys.oldIdMap(REF), 'B', 'not json');
    const found = await new IdMap(client(), keys, REF).getMany(['A', 'B']);
    expect(Object.fromEntries(found)).toEqual({ A: newer });
  });
});
