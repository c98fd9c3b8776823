import { beforeEach, describe, expect, it } from 'vitest';
import { type DeactivatedProduct, DeactivatedStore } from '../../../src/missing/deactivated-store.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { usePrefixedClients } from '../support/redis-prefix.js';

const REF = 'moving-seller';

describe('--missing records of an earlier version (by match key, one hash per match field)', () => {
  const own = usePrefixedClients();
  // A client of its own per process: each looks for records of the earlier form once.
  const client = own.client;
  let keys: RedisKeys;
  beforeEach(() => {
    keys = new RedisKeys(own.prefix);
  });

  it('are moved by product id on first use: found whichever field deactivated them, the older kept', async () => {
    const setup = client();
    const bySku: Record<string, DeactivatedProduct> = {
      A3: { id: '105', former: { quantity: 7 }, at: '2026-11-27', set: { quantity: 0 } },
      B4: { id: '106', former: { quantity: 2 } },
    };
    // Deactivated again later by a run matching by name: its first record is the one to give back.
    const byName: Record<string, DeactivatedProduct> = {
      Cherry: { id: '105', former: { quantity: 0 }, at: '2026-12-01', set: { quantity: 0 } },
      Damson: { id: '107', former: { quantity: null }, at: '2026-12-01' },
    };
    const write = (space: string, records: Record<string, unknown>) =>
      setup.hset(
        keys.deactivated(REF, space),
        ...Object.entries(records).flatMap(([key, record]) => [key, JSON.stringify(record)]),
      );
    await write('', bySku);
    await write('~name', { ...byName, Junk: 'not a record' });
    await setup.sadd(keys.idMapFields(REF), 'name');

    const stores = [client(), client()].map((redis) => new DeactivatedStore(redis, keys, REF));
    const read = await Promise.all(stores.map((store) => store.getMany(['105', '106', '107', '999'])));
    for (const found of read)
      expect(Object.fromEntries(found)).toEqual({
        '105': bySku.A3,
        '106': bySku.B4,
        '107': byName.Damson,
      });
    expect(await setup.exists(keys.deactivated(REF), keys.deactivated(REF, '~name'))).toBe(0);

    await stores[0]?.clear('105');
    expect([...((await stores[1]?.getMany(['105', '106'])) ?? new Map()).keys()]).toEqual(['106']);
  });
});
