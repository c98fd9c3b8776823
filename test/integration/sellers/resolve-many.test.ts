import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { SellerRegistry } from '../../../src/sellers/seller-registry.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

describe('SellerRegistry.resolveRefs with a keys file of many keys', () => {
  const rig = usePrefixedRedis();

  it('resolves 150,000 fingerprints (linked ones to their seller) without overflowing a call', async () => {
    const registry = new SellerRegistry(rig.redis, new RedisKeys(rig.prefix));
    const fingerprints = Array.from({ length: 150_000 }, (_, i) => `fp-${i}`);
    await registry.linkKey('fp-7', 'seller-a');
    await registry.linkKey('fp-149999', 'seller-b');

    const refs = await registry.resolveRefs(fingerprints);

    expect(refs).toHaveLength(150_000);
    expect([refs[0], refs[7], refs[20_000], refs[149_999]]).toEqual([
      'fp-0',
      'seller-a',
      'fp-20000',
      'seller-b',
    ]);
  });
});
