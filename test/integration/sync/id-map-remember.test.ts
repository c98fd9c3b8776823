import type { Redis } from 'ioredis';
import { beforeEach, describe, expect, it } from 'vitest';
import { runWrites, WriteList } from '../../../src/redis/write-list.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { IdMap, type Remembered } from '../../../src/sync/id-map.js';
import { bucketOf } from '../../../src/sync/id-map-buckets.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const REF = 'remembering-seller';

/** Two match keys of one bucket: the script writes a bucket's entries together. */
function twoKeysOfOneBucket(): [string, string] {
  const seen = new Map<number, string>();
  for (let i = 0; ; i++) {
    const key = `SAME-${i}`;
    const other = seen.get(bucketOf(key));
    if (other) return [other, key];
    seen.set(bucketOf(key), key);
  }
}

/**
 * The rows of one settle are recorded in the id map by one script call (issue 31): each product in
 * its bucket and its reverse, and each create's claim released only where it still holds the token.
 */
describe('IdMap: the records of a settle', () => {
  const rig = usePrefixedRedis();
  let redis: Redis;
  let keys: RedisKeys;

  beforeEach(() => {
    redis = rig.redis;
    keys = new RedisKeys(rig.prefix);
  });

  it('records every product and releases exactly the claims its creates still hold', async () => {
    const idMap = new IdMap(redis, keys, REF);
    await idMap.ready();
    const [same1, same2] = twoKeysOfOneBucket();
    await redis.hset(keys.pendingCreates(REF), {
      A: 'run-1|token-a|99',
      B: 'run-2|token-other|99',
      C: 'run-1|token-c|99',
    });
    const items: Remembered[] = [
      { matchKey: 'A', product: { id: '1', sent: { name: 'Lamp' } }, claim: 'run-1|token-a' },
      // Another process claimed B since: its claim stays.
      { matchKey: 'B', product: { id: '2', sent: {} }, claim: 'run-1|token-b' },
      // An unchanged row remembered without a claim: C's claim stays.
      { matchKey: 'C', product: { id: '3', sent: {} }, claim: '' },
      { matchKey: same1, product: { id: '4', sent: {} }, claim: '' },
      { matchKey: same2, product: { id: '5', sent: {} }, claim: '' },
      // The same key twice: the later record wins, as it would one call after the other.
      { matchKey: 'A', product: { id: '1', sent: { name: 'Lamp, brass' } }, claim: '' },
    ];
    const writes = new WriteList();
    idMap.remembered.write(writes, items);
    await runWrites(redis, writes);

    expect(await redis.hgetall(keys.pendingCreates(REF))).toEqual({
      B: 'run-2|token-other|99',
      C: 'run-1|token-c|99',
    });
    const known = await idMap.getMany(['A', 'B', 'C', same1, same2]);
    expect(Object.fromEntries([...known].map(([key, product]) => [key, product.id]))).toEqual({
      A: '1',
      B: '2',
      C: '3',
      [same1]: '4',
      [same2]: '5',
    });
    expect(known.get('A')?.sent).toEqual({ name: 'Lamp, brass' });
    const reverse = await idMap.keysOfIds(['1', '2', '3', '4', '5']);
    expect(Object.fromEntries(reverse)).toEqual({ 1: 'A', 2: 'B', 3: 'C', 4: same1, 5: same2 });
  });

  it("a product recorded under its SKU drops its former key's entry, only while that entry still names it", async () => {
    const idMap = new IdMap(redis, keys, REF);
    await idMap.remember('woocommerce:id:69', { id: '7', sent: { name: 'Chair' } });
    await idMap.remember('woocommerce:id:70', { id: '70', sent: {} });
    // `7` is a prefix of `70`: the entry of product 70 is not product 7's.
    await idMap.remember('woocommerce:id:71', { id: '70', sent: {} });
    const writes = new WriteList();
    idMap.remembered.write(writes, [
      {
        matchKey: 'CHAIR-01',
        product: { id: '7', sent: { name: 'Chair' } },
        claim: '',
        former: { key: 'woocommerce:id:69', id: '7' },
      },
      {
        matchKey: 'STOOL-1',
        product: { id: '8', sent: {} },
        claim: '',
        former: { key: 'woocommerce:id:70', id: '7' },
      },
    ]);
    await runWrites(redis, writes);
    // The call outside a settle does the same.
    await idMap.remember('TABLE-1', { id: '70', sent: {} }, '', {
      former: { key: 'woocommerce:id:71', id: '70' },
    });

    const known = await idMap.getMany([
      'CHAIR-01',
      'woocommerce:id:69',
      'woocommerce:id:70',
      'woocommerce:id:71',
    ]);
    expect(Object.fromEntries([...known].map(([key, product]) => [key, product.id]))).toEqual({
      'CHAIR-01': '7',
      'woocommerce:id:70': '70',
    });
    expect(Object.fromEntries(await idMap.keysOfIds(['7', '70']))).toEqual({ 7: 'CHAIR-01', 70: 'TABLE-1' });
  });
});
