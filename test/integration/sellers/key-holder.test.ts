import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { RunStore } from '../../../src/runs/run-store.js';
import { SellerRegistry } from '../../../src/sellers/seller-registry.js';
import { runSpec } from '../../support/run-record.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const KEY = 'fp-right-key';
const PAUSED = 'fp-typo-seller';

/**
 * `claimKey` links a key to another seller only when the seller it leads to has nothing recorded:
 * anything there makes that seller the key's own (resume.ts, `--seller NAME`), not only products.
 */
describe('whether a key may be linked to another seller', () => {
  const rig = usePrefixedRedis();
  const registry = () => new SellerRegistry(rig.redis, new RedisKeys(rig.prefix));
  const keys = () => new RedisKeys(rig.prefix);

  it('a key whose own ref has nothing is linked (a revoked key replaced)', async () => {
    expect(await registry().claimKey(KEY, PAUSED)).toBeNull();
    expect(await registry().resolveRef(KEY)).toBe(PAUSED);
  });

  it('a key whose seller has a run listed, no product created, is not: the holder counts its runs', async () => {
    await new RunStore(rig.redis, keys()).create(runSpec({ sellerRef: KEY }));
    expect(await registry().claimKey(KEY, PAUSED)).toEqual({ ref: KEY, name: null, products: 0, runs: 1 });
    expect(await registry().resolveRef(KEY)).toBe(KEY);
  });

  it('a key whose seller has only a dry run listed, and the quota its read spent and learned, is linked', async () => {
    await new RunStore(rig.redis, keys()).create(runSpec({ sellerRef: KEY, dryRun: true }));
    await rig.redis.set(keys().learnedLimit(KEY), '{"limit":1000}');
    await rig.redis.set(keys().limitReset(KEY), String(Date.now()));
    expect(await registry().claimKey(KEY, PAUSED)).toBeNull();
    expect(await registry().resolveRef(KEY)).toBe(PAUSED);
  });

  it('nor one whose seller kept what its runs wrote, its runs expired (its match field, fields sent)', async () => {
    await rig.redis.set(keys().idMapHome(KEY), 'sku');
    expect(await registry().claimKey(KEY, PAUSED)).toMatchObject({ ref: KEY, runs: 0 });
    await rig.redis.del(keys().idMapHome(KEY));
    await rig.redis.sadd(keys().fieldsSent(KEY), 'price');
    expect(await registry().claimKey(KEY, PAUSED)).toMatchObject({ ref: KEY });
    expect(await registry().resolveRef(KEY)).toBe(KEY);
  });

  it('nor one already linked to a seller, nor one whose seller another key was linked to', async () => {
    await registry().linkKey(KEY, 'other-seller');
    expect(await registry().claimKey(KEY, PAUSED)).toMatchObject({ ref: 'other-seller' });
    await rig.redis.hdel(keys().sellerAliases, KEY);
    await registry().linkKey('fp-newer-key', KEY);
    expect(await registry().claimKey(KEY, PAUSED)).toMatchObject({ ref: KEY });
    expect(await registry().resolveRef(KEY)).toBe(KEY);
  });
});
