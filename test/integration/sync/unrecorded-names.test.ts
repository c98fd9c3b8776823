import { describe, expect, it, vi } from 'vitest';
import { rememberApproved } from '../../../src/guards/lookalike-creates.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { keepUnrecordedNames, LOOKALIKE_GUARDED } from '../../../src/sync/unrecorded-names.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const REF = 'lookalike-seller';
const RUN = { id: 'run-1', matchBy: 'sku', sellerRef: REF };

/**
 * The names a run's list read keeps for the look-alike guard (guards/lookalike-creates.ts), and the
 * products a seller approved past, which hold no run again.
 */
describe('products without a SKU unknown to the tool, and those approved past', () => {
  const rig = usePrefixedRedis();
  const keys = () => new RedisKeys(rig.prefix);

  it('keeps every id of a name; leaves out the approved ones and drops those no longer listed so', async () => {
    await rig.redis.sadd(keys().approvedLookalikes(REF), '210', '999');

    await keepUnrecordedNames(rig.redis, keys(), RUN, [
      { id: '210', name: 'T-Shirt' },
      { id: '211', name: 't-shirt ' },
      { id: '212', name: 'T-SHIRT' },
      { id: '300', name: 'Mug' },
    ]);

    expect(await rig.redis.hgetall(keys().unrecordedNames(RUN.id))).toEqual({
      't-shirt': '211,212',
      mug: '300',
    });
    expect(await rig.redis.hget(keys().run(RUN.id), LOOKALIKE_GUARDED)).toBe('1');
    // 999 is listed no more without a SKU (given one, recorded, or gone): not kept.
    expect(await rig.redis.smembers(keys().approvedLookalikes(REF))).toEqual(['210']);
  });

  it('a dry run forgets no approved product', async () => {
    await rig.redis.sadd(keys().approvedLookalikes(REF), '210', '999');

    await keepUnrecordedNames(rig.redis, keys(), { ...RUN, dryRun: true }, [{ id: '210', name: 'T-Shirt' }]);

    expect((await rig.redis.smembers(keys().approvedLookalikes(REF))).sort()).toEqual(['210', '999']);
  });

  it('a run whose every such product was approved past is not marked', async () => {
    await rig.redis.sadd(keys().approvedLookalikes(REF), '210', '211');

    await keepUnrecordedNames(rig.redis, keys(), RUN, [
      { id: '210', name: 'T-Shirt' },
      { id: '211', name: 'T-Shirt' },
    ]);

    expect(await rig.redis.exists(keys().unrecordedNames(RUN.id), keys().run(RUN.id))).toBe(0);
  });

  it('a seller listing no such product costs no command', async () => {
    const sent = vi.spyOn(rig.redis, 'sendCommand');

    await keepUnrecordedNames(rig.redis, keys(), RUN, []);
    await keepUnrecordedNames(rig.redis, keys(), RUN, [{ id: '1', name: '  ' }]);

    expect(sent).not.toHaveBeenCalled();
  });

  it('approve remembers the products of the approved rows, all or those of --rows', async () => {
    const lookalike = (row: number, productIds: string[]) =>
      JSON.stringify({ row, key: `woocommerce:id:${row}`, name: 'T-Shirt', productIds });
    await rig.redis.hset(
      keys().lookalikes(RUN.id),
      '1',
      lookalike(1, ['210', '211']),
      '2',
      lookalike(2, ['212']),
    );
    // A lookalike an earlier version stored names its first product alone.
    await rig.redis.hset(
      keys().lookalikes(RUN.id),
      '3',
      JSON.stringify({ row: 3, key: 'k', name: 'Mug', productId: '300' }),
    );
    const run = { ...RUN, lookalikeGuarded: true };

    await rememberApproved(rig.redis, keys(), run, [1, 3]);
    expect((await rig.redis.smembers(keys().approvedLookalikes(REF))).sort()).toEqual(['210', '211', '300']);

    await rememberApproved(rig.redis, keys(), run, null);
    expect((await rig.redis.smembers(keys().approvedLookalikes(REF))).sort()).toEqual([
      '210',
      '211',
      '212',
      '300',
    ]);

    // A run not held for look-alikes reads nothing.
    const sent = vi.spyOn(rig.redis, 'sendCommand');
    await rememberApproved(rig.redis, keys(), { ...RUN, lookalikeGuarded: false }, null);
    expect(sent).not.toHaveBeenCalled();
  });
});
