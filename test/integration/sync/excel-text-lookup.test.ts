import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProductUpsert } from '../../../src/interfaces.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import type { RemoteProduct } from '../../../src/seller-api/index.js';
import { CreateClaims } from '../../../src/sync/create-claims.js';
import { IdMap } from '../../../src/sync/id-map.js';
import { LIST_SKIPPED } from '../../../src/sync/incremental.js';
import { RemoteIndex } from '../../../src/sync/remote-index.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const REF = 'excel-text-seller';
const RUN = 'run-1';

// A row whose key was read from a cell of Excel text (`="00123"` read as `00123`) finds the product
// an earlier version made under the key as written; what that look costs, and when it is skipped.
describe('RemoteIndex: a key read from Excel text (real Redis)', () => {
  let redis: Redis;
  let prefix: string;
  let keys: RedisKeys;
  let idMap: IdMap;

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    keys = new RedisKeys(prefix);
    idMap = new IdMap(redis, keys, REF);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await redis.quit();
    await removePrefix(prefix);
  });

  const index = () =>
    new RemoteIndex(redis, keys, RUN, 'sku', null, idMap, new CreateClaims(redis, keys, REF), new Set());

  async function* pages(products: RemoteProduct[]): AsyncGenerator<RemoteProduct[]> {
    yield products;
  }
  const product = (id: string, sku: string): RemoteProduct => ({ id, fields: { id, sku, name: 'Mug' } });

  const row = (n: number, key: string, excelKey?: string): ProductUpsert => ({
    kind: 'upsert',
    row: n,
    line: n + 1,
    key,
    fields: { sku: key, name: 'Mug', price: 1 },
    ...(excelKey === undefined ? {} : { excelKey }),
  });

  /** The Redis commands (and id map reads) a chunk's look-up sends, by method. */
  function counting() {
    const hmget = vi.spyOn(redis, 'hmget');
    const getMany = vi.spyOn(idMap, 'getMany');
    return () => ({ hmget: hmget.mock.calls.length, getMany: getMany.mock.calls.length });
  }

  it('finds the product listed under the key as written, and what the id map records of it', async () => {
    await idMap.remember('="00123"', { id: '7', sent: { sku: '="00123"' } });
    const remote = index();
    await remote.load(pages([product('7', '="00123"'), product('8', 'PLAIN')]));

    const found = await remote.lookup([row(1, '00123', '="00123"'), row(2, 'NEW', '="NEW"')]);

    expect(found.get(1)).toMatchObject({
      remote: { id: '7', values: { sku: '="00123"' } },
      known: { id: '7' },
      excelText: { key: '="00123"', id: '7', matchBy: 'sku' },
    });
    expect(found.get(2)).toEqual({});
  });

  it('looks nowhere after a list read that listed no key written so, nor for rows read otherwise', async () => {
    const remote = index();
    await remote.load(pages([product('7', '00123'), product('8', 'PLAIN')]));
    await remote.lookup([row(1, 'WARM-UP')]);

    const count = counting();
    await remote.lookup([row(1, 'NEW-1'), row(2, 'NEW-2')]);
    const plain = count();
    await remote.lookup([row(1, 'NEW-1', '="NEW-1"'), row(2, 'NEW-2', '="NEW-2"')]);
    const total = count();

    // Rows read from Excel text cost exactly what any others do.
    expect({ hmget: total.hmget - plain.hmget, getMany: total.getMany - plain.getMany }).toEqual(plain);
  });

  it('asks the run index only, once for the chunk, where the list read listed such keys', async () => {
    const remote = index();
    await remote.load(pages([product('7', '="00123"')]));
    await remote.lookup([row(1, 'WARM-UP')]);

    const count = counting();
    await remote.lookup([row(1, 'NEW-1'), row(2, 'NEW-2')]);
    const plain = count();
    await remote.lookup([row(1, 'NEW-1', '="NEW-1"'), row(2, 'NEW-2', '="NEW-2"')]);
    const total = count();

    // One HMGET more; the id map is asked only for a key found (none here).
    expect({ hmget: total.hmget - 2 * plain.hmget, getMany: total.getMany - 2 * plain.getMany }).toEqual({
      hmget: 1,
      getMany: 0,
    });
  });

  it('finds it under the key as written in a run the earlier version read (d1ba056: no index by text)', async () => {
    await idMap.remember('="00123"', { id: '7', sent: { sku: '="00123"' } });
    await index().load(pages([product('7', '="00123"'), product('8', 'PLAIN')]));
    // What d1ba056's read left: the record says it listed such a key; keyToId holds it as written.
    await redis.del(keys.formerFormKeys(RUN, 'excel-text'));
    await redis.hdel(keys.run(RUN), 'excelTextIndexed');

    const found = await index().lookup([row(1, '00123', '="00123"'), row(2, 'NEW', '="NEW"')]);

    expect(found.get(1)).toMatchObject({
      remote: { id: '7', values: { sku: '="00123"' } },
      known: { id: '7' },
      excelText: { key: '="00123"', id: '7', matchBy: 'sku' },
    });
    expect(found.get(2)).toEqual({});
  });

  it('finds the product in the id map alone in an --incremental run that read none', async () => {
    await idMap.remember('="00123"', { id: '7', sent: { sku: '="00123"', name: 'Mug' } });
    await redis.hset(keys.run(RUN), LIST_SKIPPED, '1');

    const found = await index().lookup([row(1, '00123', '="00123"'), row(2, '00456', '="00456"')]);

    expect(found.get(1)).toMatchObject({
      remote: { id: '7', unread: true },
      known: { id: '7', sent: { sku: '="00123"' } },
      excelText: { key: '="00123"', id: '7' },
    });
    expect(found.get(2)).toEqual({});
  });
});
