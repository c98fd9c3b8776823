import { describe, expect, it } from 'vitest';
import { compactFields } from '../../../src/sync/compact-value.js';
import { CreatedProductFinder } from '../../../src/sync/created-product-finder.js';
import type { IndexedProduct } from '../../../src/sync/diff.js';
import type { UnkeyedProduct } from '../../../src/sync/remote-index.js';

/**
 * A fake re-read of the seller's products: each call waits until the test settles it, so the test
 * decides which rows ask while which read is running.
 */
class FakeRefresh {
  readonly calls: Array<{ resolve: (products: UnkeyedProduct[]) => void; reject: (error: Error) => void }> =
    [];
  /** What the index holds under a match key once a read has settled. */
  readonly indexed = new Map<string, IndexedProduct>();

  readonly refresh = (): Promise<UnkeyedProduct[]> =>
    new Promise((resolve, reject) => {
      this.calls.push({ resolve, reject });
    });

  readonly byKey = async (key: string): Promise<IndexedProduct | null> => this.indexed.get(key) ?? null;

  /** Settles the n-th read (1-based), first putting `keyed` into the index. */
  async settle(n: number, unkeyed: UnkeyedProduct[] = [], keyed: Record<string, IndexedProduct> = {}) {
    for (const [key, product] of Object.entries(keyed)) this.indexed.set(key, product);
    const call = this.calls[n - 1];
    if (!call) throw new Error(`read ${n} was never started (${this.calls.length} started)`);
    call.resolve(unkeyed);
    await flush();
  }
}

/** Lets every pending continuation run (the finder chains a few awaits per row). */
const flush = () => new Promise((resolve) => setImmediate(resolve));

const product = (id: string, fields: Record<string, unknown>): UnkeyedProduct => ({
  id,
  values: compactFields(fields),
});

/** A clock the test moves, and sleeps the test ends (`wake`), as a chunk's rows would meet them. */
class FakeTime {
  now = 1_000;
  readonly sleeps: Array<{ ms: number; wake: () => void }> = [];

  readonly clock = () => this.now;
  readonly sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      this.sleeps.push({ ms, wake: resolve });
    });
}

const setUp = () => {
  const fake = new FakeRefresh();
  const time = new FakeTime();
  const finder = new CreatedProductFinder(fake.refresh, fake.byKey, 'sku', time.clock, time.sleep);
  return { fake, time, finder };
};

describe('CreatedProductFinder', () => {
  describe('when rows ask while a read of the products runs', () => {
    it('shares the read with a row whose answer was lost before it started', async () => {
      const { fake, finder } = setUp();
      const markA = finder.mark();
      const markB = finder.mark();
      const a = finder.find('A', { sku: 'A', name: 'Scarf' }, markA);
      await flush();
      const b = finder.find('B', { sku: 'B', name: 'Hat' }, markB);
      await flush();
      expect(fake.calls).toHaveLength(1);

      await fake.settle(1, [], { A: { id: '1', values: {} }, B: { id: '2', values: {} } });
      await expect(a).resolves.toEqual({ id: '1', values: {} });
      await expect(b).resolves.toEqual({ id: '2', values: {} });
      expect(fake.calls).toHaveLength(1);
    });

    it('starts a new read for a row whose answer was lost after the running read began', async () => {
      const { fake, finder } = setUp();
      const early = finder.find('A', { sku: 'A', name: 'Scarf' }, finder.mark());
      await flush();
      // The running read may have listed the products before this row's create was applied.
      const late = finder.find('B', { sku: 'B', name: 'Hat' }, finder.mark());
      await flush();
      expect(fake.calls).toHaveLength(1);

      await fake.settle(1, [], { A: { id: '1', values: {} } });
      await expect(early).resolves.toEqual({ id: '1', values: {} });
      expect(fake.calls).toHaveLength(2);

      await fake.settle(2, [], { B: { id: '2', values: {} } });
      await expect(late).resolves.toEqual({ id: '2', values: {} });
    });

    it('lets every row that waited for the too-early read share the one new read', async () => {
      const { fake, finder } = setUp();
      const first = finder.find('A', { sku: 'A', name: 'Scarf' }, finder.mark());
      await flush();
      const waiting = ['B', 'C', 'D'].map((key) => finder.find(key, { sku: key, name: key }, finder.mark()));
      await flush();

      await fake.settle(1);
      await first;
      expect(fake.calls).toHaveLength(2);

      await fake.settle(2, [], {
        B: { id: '2', values: {} },
        C: { id: '3', values: {} },
        D: { id: '4', values: {} },
      });
      expect((await Promise.all(waiting)).map((found) => found?.id)).toEqual(['2', '3', '4']);
      expect(fake.calls).toHaveLength(2);
    });

    it('starts a new read for a row that asks after the last read settled', async () => {
      const { fake, finder } = setUp();
      const first = finder.find('A', { sku: 'A', name: 'Scarf' }, finder.mark());
      await flush();
      await fake.settle(1);
      await first;

      const second = finder.find('A', { sku: 'A', name: 'Scarf' }, finder.mark());
      await flush();
      expect(fake.calls).toHaveLength(2);
      await fake.settle(2, [], { A: { id: '1', values: {} } });
      await expect(second).resolves.toEqual({ id: '1', values: {} });
    });

    it('fails the rows sharing a read that fails, and reads afresh for the next row', async () => {
      const { fake, finder } = setUp();
      const mark = finder.mark();
      const shared = [finder.find('A', { name: 'a' }, mark), finder.find('B', { name: 'b' }, mark)];
      await flush();
      fake.calls[0]?.reject(new Error('GET /products: 500 Internal Server Error'));
      const settled = await Promise.allSettled(shared);
      expect(settled.map((row) => row.status)).toEqual(['rejected', 'rejected']);
      expect(String((settled[0] as PromiseRejectedResult).reason)).toContain('500 Internal Server Error');

      const next = finder.find('A', { name: 'a' }, finder.mark());
      await flush();
      expect(fake.calls).toHaveLength(2);
      await fake.settle(2, [], { A: { id: '1', values: {} } });
      await expect(next).resolves.toEqual({ id: '1', values: {} });
    });
  });

  describe('when rows take over claims whose holder stopped (a killed worker)', () => {
    it('joins the read under way when the claim expired before that read began', async () => {
      const { fake, time, finder } = setUp();
      const first = finder.find('A', { sku: 'A' }, finder.markSince(900));
      await flush();
      time.now = 1_050;
      // Found stale after the read began, but its holder's last POST came before the read did.
      const second = finder.find('B', { sku: 'B' }, finder.markSince(950));
      await flush();

      await fake.settle(1, [], { A: { id: '1', values: {} }, B: { id: '2', values: {} } });
      expect([(await first)?.id, (await second)?.id]).toEqual(['1', '2']);
      expect(fake.calls).toHaveLength(1);
    });

    it('reads again for a claim that expired after the running read began', async () => {
      const { fake, time, finder } = setUp();
      const first = finder.find('A', { sku: 'A' }, finder.markSince(900));
      await flush();
      time.now = 1_200;
      const late = finder.find('B', { sku: 'B' }, finder.markSince(1_100));
      await flush();
      await fake.settle(1, [], { A: { id: '1', values: {} } });
      await first;

      expect(fake.calls).toHaveLength(2);
      await fake.settle(2, [], { B: { id: '2', values: {} } });
      await expect(late).resolves.toEqual({ id: '2', values: {} });
    });

    it('uses the read already settled when it began after the claim expired', async () => {
      const { fake, time, finder } = setUp();
      const first = finder.find('A', { sku: 'A' }, finder.markSince(900));
      await flush();
      await fake.settle(1, [], { A: { id: '1', values: {} }, B: { id: '2', values: {} } });
      await first;

      time.now = 5_000;
      await expect(finder.find('B', { sku: 'B' }, finder.markSince(990))).resolves.toEqual({
        id: '2',
        values: {},
      });
      expect(fake.calls).toHaveLength(1);
    });

    it('starts its read no sooner than told, and a row that starts one meanwhile lets it join', async () => {
      const { fake, time, finder } = setUp();
      const waiting = finder.find('A', { sku: 'A' }, finder.markSince(900), 1_400);
      await flush();
      expect(fake.calls).toHaveLength(0);
      expect(time.sleeps.map((sleep) => sleep.ms)).toEqual([400]);

      // A lost answer starts a read at once; the waiting row joins it rather than reading again.
      time.now = 1_100;
      const lost = finder.find('B', { sku: 'B' }, finder.mark());
      await flush();
      expect(fake.calls).toHaveLength(1);
      await fake.settle(1, [], { A: { id: '1', values: {} }, B: { id: '2', values: {} } });
      expect([(await waiting)?.id, (await lost)?.id]).toEqual(['1', '2']);
      expect(fake.calls).toHaveLength(1);
    });

    it('reads once its wait is over, even on a clock that did not move', async () => {
      const { fake, time, finder } = setUp();
      const waiting = finder.find('A', { sku: 'A' }, finder.markSince(900), 1_400);
      await flush();
      time.sleeps[0]?.wake();
      await flush();

      expect(fake.calls).toHaveLength(1);
      await fake.settle(1, [], { A: { id: '1', values: {} } });
      await expect(waiting).resolves.toEqual({ id: '1', values: {} });
    });
  });

  describe('when the API shows the match field', () => {
    it('finds the product under its key, before looking at unkeyed products', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', { sku: 'A', name: 'Scarf' }, finder.mark());
      await flush();
      await fake.settle(1, [product('9', { name: 'Scarf' })], { A: { id: '1', values: { name: 'Scarf' } } });
      await expect(found).resolves.toEqual({ id: '1', values: { name: 'Scarf' } });
    });
  });

  describe('when the API hides the match field', () => {
    it('finds the unkeyed product with every sent field equal, prices as decimals', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', { sku: 'A', name: 'Scarf', price: 12.5 }, finder.mark());
      await flush();
      await fake.settle(1, [
        product('8', { name: 'Scarf', price: 13 }),
        product('9', { name: 'Scarf', price: '12.50', colour: 'red' }),
      ]);
      await expect(found).resolves.toMatchObject({ id: '9' });
    });

    it('gives each unkeyed product to one row only', async () => {
      const { fake, finder } = setUp();
      const mark = finder.mark();
      const twins = ['A', 'B', 'C'].map((key) =>
        finder.find(key, { sku: key, name: 'Scarf', price: 5 }, mark),
      );
      await flush();
      await fake.settle(1, [
        product('8', { name: 'Scarf', price: 5 }),
        product('9', { name: 'Scarf', price: 5 }),
      ]);
      const ids = (await Promise.all(twins)).map((found) => found?.id ?? null);
      expect(ids.filter((id) => id !== null).sort()).toEqual(['8', '9']);
      expect(ids.filter((id) => id === null)).toHaveLength(1);
    });

    it('does not take a product that lacks one of the sent fields', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', { sku: 'A', name: 'Scarf', colour: 'red' }, finder.mark());
      await flush();
      await fake.settle(1, [product('9', { name: 'Scarf' })]);
      await expect(found).resolves.toBeNull();
    });

    it('finds nothing for a row that sent only its match field', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', { sku: 'A' }, finder.mark());
      await flush();
      await fake.settle(1, [product('9', {})]);
      await expect(found).resolves.toBeNull();
    });
  });

  describe('when the match field is not sent (--fields without it)', () => {
    it('finds the unkeyed product with every sent field equal', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', { name: 'Scarf', price: 12.5 }, finder.mark());
      await flush();
      await fake.settle(1, [
        product('8', { name: 'Scarf', price: 13 }),
        product('9', { name: 'Scarf', price: 12.5 }),
      ]);
      await expect(found).resolves.toMatchObject({ id: '9' });
    });

    it('finds nothing for a row that sent no field to compare', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', {}, finder.mark());
      await flush();
      await fake.settle(1, [product('9', {})]);
      await expect(found).resolves.toBeNull();
    });
  });

  describe('when the product is nowhere', () => {
    it('resolves to null, so the row is created once', async () => {
      const { fake, finder } = setUp();
      const found = finder.find('A', { sku: 'A', name: 'Scarf' }, finder.mark());
      await flush();
      await fake.settle(1, [product('9', { name: 'Hat' })]);
      await expect(found).resolves.toBeNull();
    });
  });
});
