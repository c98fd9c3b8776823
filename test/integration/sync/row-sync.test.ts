import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLAIM_MS } from '../../../src/defaults.js';
import type { ProductFields, ProductUpsert } from '../../../src/interfaces.js';
import { silentLogger } from '../../../src/logger.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import {
  DailyLimitError,
  EndpointNotFoundError,
  InvalidRequestError,
  NetworkError,
  NotFoundError,
  type RemoteProduct,
  type SellerApiClient,
} from '../../../src/seller-api/index.js';
import { CreateClaims } from '../../../src/sync/create-claims.js';
import { CreatedProductFinder } from '../../../src/sync/created-product-finder.js';
import { IdMap } from '../../../src/sync/id-map.js';
import { RemoteIndex } from '../../../src/sync/remote-index.js';
import { syncRow } from '../../../src/sync/row-sync.js';
import type { RowSyncContext } from '../../../src/sync/row-sync-context.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

const REF = 'row-sync-seller';
const RUN = 'run-1';

/**
 * A Seller API in memory that keeps its own form of what it is sent (prices in cents, names
 * trimmed), with faults queued per method. Only the calls syncRow makes.
 */
class FakeApi {
  readonly products = new Map<string, Record<string, unknown>>();
  readonly calls = { create: 0, update: 0, get: 0, list: 0 };
  readonly faults: { create: Error[]; update: Error[] } = { create: [], update: [] };
  /** A create whose answer is lost: applied, then the error is thrown. */
  loseNextCreateAnswer = false;
  private nextId = 1;

  /** Stamps each product it stores with the time, as the sandbox and many APIs do. */
  stamps = false;

  stored(fields: ProductFields): Record<string, unknown> {
    const kept: Record<string, unknown> = { ...fields };
    if (this.stamps) kept.updated_at = new Date().toISOString();
    if (typeof fields.name === 'string') kept.name = fields.name.trim().replace(/\s+/g, ' ');
    if (typeof fields.price === 'number') kept.price = Math.round(fields.price * 100) / 100;
    return kept;
  }

  readonly client = {
    createProduct: async (fields: ProductFields) => {
      this.calls.create++;
      const fault = this.faults.create.shift();
      if (fault && !this.loseNextCreateAnswer) throw fault;
      const id = String(this.nextId++);
      this.products.set(id, this.stored(fields));
      if (fault) throw fault;
      return { id, product: { id, fields: { id, ...this.products.get(id) } } };
    },
    updateProduct: async (id: string, fields: ProductFields) => {
      this.calls.update++;
      const fault = this.faults.update.shift();
      if (fault) throw fault;
      const current = this.products.get(id);
      if (!current) throw new NotFoundError({ method: 'PUT', path: `/products?id=${id}`, status: 404 });
      Object.assign(current, this.stored(fields));
      return { id, fields: { id, ...current } };
    },
    getProduct: async (id: string): Promise<RemoteProduct> => {
      this.calls.get++;
      const current = this.products.get(id);
      if (!current) throw new NotFoundError({ method: 'GET', path: `/products?id=${id}`, status: 404 });
      return { id, fields: { id, ...current } };
    },
    listProducts: () => this.list(),
  };

  /** Every product in one page; `hide` leaves fields out, as an API that does not list `sku`. */
  hide: string[] = [];
  private async *list(): AsyncGenerator<RemoteProduct[]> {
    this.calls.list++;
    yield [...this.products].map(([id, stored]) => {
      const fields: Record<string, unknown> = { id, ...stored };
      for (const name of this.hide) delete fields[name];
      return { id, fields };
    });
  }
}

const lostAnswer = () =>
  new NetworkError({ method: 'POST', path: '/products', status: null, outcomeUnknown: true });

describe('syncRow against an API with its own forms (real Redis, fake API, fake clock)', () => {
  let redis: Redis;
  let prefix: string;
  let api: FakeApi;
  let clock: { now: number };

  beforeEach(() => {
    prefix = uniquePrefix();
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    api = new FakeApi();
    clock = { now: Date.parse('2026-11-23T02:00:00Z') };
  });
  afterEach(async () => {
    await redis.quit();
    await removePrefix(prefix);
  });

  /**
   * One run's context in one process; a second call is another run (or another worker). Its sleep
   * moves the fake clock on, unless `sleep` is given.
   */
  function context(
    runId = RUN,
    sleep?: RowSyncContext['sleep'],
    leaveOut: ReadonlySet<string> = new Set(),
  ): RowSyncContext {
    const keys = new RedisKeys(prefix);
    const idMap = new IdMap(redis, keys, REF);
    const claims = new CreateClaims(redis, keys, REF, () => clock.now);
    const index = new RemoteIndex(redis, keys, runId, 'sku', null, idMap, claims, leaveOut);
    const wait =
      sleep ??
      (async (ms: number) => {
        clock.now += ms;
      });
    const finder = new CreatedProductFinder(
      () => index.load(api.client.listProducts()),
      (key) => index.byKey(key),
      'sku',
      () => clock.now,
      wait,
    );
    return {
      runId,
      client: api.client as unknown as SellerApiClient,
      index,
      idMap,
      claims,
      finder,
      dryRun: false,
      createOnly: new Set(),
      matchBy: 'sku',
      recordUnchanged: false,
      retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 1 },
      sleep: wait,
      random: () => 0.5,
      logger: silentLogger,
    };
  }

  const row = (fields: ProductFields, n = 1): ProductUpsert => ({
    kind: 'upsert',
    row: n,
    line: n + 1,
    key: String(fields.sku),
    fields,
  });

  /** Reads the seller's products into the run's index, then syncs the row as a chunk would. */
  async function sync(ctx: RowSyncContext, upsert: ProductUpsert) {
    await ctx.index.load(api.client.listProducts());
    const lookups = await ctx.index.lookup([upsert]);
    return syncRow(ctx, upsert, lookups.get(upsert.row) ?? {});
  }

  const claimsHeld = () => redis.hgetall(new RedisKeys(prefix).pendingCreates(REF));

  it('creates once, records the API’s form, and leaves no claim', async () => {
    const outcome = await sync(context(), row({ sku: 'A', name: ' Lamp  ', price: 1.005 }));

    expect(outcome).toMatchObject({ action: 'create', status: 'ok', productId: '1' });
    expect(await claimsHeld()).toEqual({});
    const again = await sync(context('run-2'), row({ sku: 'A', name: ' Lamp  ', price: 1.005 }));
    expect(again).toMatchObject({ action: 'unchanged' });
    expect(api.calls).toMatchObject({ create: 1, update: 0 });
  });

  it('after an update answered in the API’s form, the next run writes nothing', async () => {
    await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));

    const updated = await sync(context('run-2'), row({ sku: 'A', name: 'Lamp ', price: 2.499 }));
    const quiet = await sync(context('run-3'), row({ sku: 'A', name: 'Lamp ', price: 2.499 }));

    expect(updated).toMatchObject({ action: 'update', status: 'ok' });
    expect(quiet).toMatchObject({ action: 'unchanged' });
    expect(api.calls.update).toBe(1);
  });

  it('keeps an entry after a create or an update by the rules of a listed one: no id, no stamps', async () => {
    api.stamps = true;
    const stamped = new Set(['updated_at']);
    const entry = async (runId: string) =>
      JSON.parse((await redis.hget(new RedisKeys(prefix).products(runId), '1')) ?? 'null');

    await sync(context(RUN, undefined, stamped), row({ sku: 'A', name: 'Lamp', price: 2 }));
    expect(await entry(RUN)).toEqual({ sku: 'A', name: 'Lamp', price: 2 });

    const updated = await sync(
      context('run-2', undefined, stamped),
      row({ sku: 'A', name: 'Lamp', price: 3 }),
    );
    expect(updated).toMatchObject({ action: 'update', status: 'ok' });
    expect(await entry('run-2')).toEqual({ sku: 'A', name: 'Lamp', price: 3 });
  });

  it('on a 429 gives the key up and rethrows, so the row stays queued', async () => {
    api.faults.create.push(
      new DailyLimitError({ method: 'POST', path: '/products', status: 429 }, new Date(clock.now + 60_000)),
    );

    await expect(sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }))).rejects.toBeInstanceOf(
      DailyLimitError,
    );

    expect(await claimsHeld()).toEqual({});
  });

  it('on no answer to every try leaves the key to be looked up; the next run looks, then creates once', async () => {
    api.faults.create.push(lostAnswer(), lostAnswer(), lostAnswer());

    const failed = await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));
    expect(failed).toMatchObject({ action: 'create', status: 'failed' });
    expect(Object.values(await claimsHeld())).toEqual([expect.stringMatching(/^run-1\|.*\|0$/)]);

    const listsBefore = api.calls.list;
    const next = await sync(context('run-2'), row({ sku: 'A', name: 'Lamp', price: 2 }));

    expect(next).toMatchObject({ action: 'create', status: 'ok' });
    expect(api.calls.list - listsBefore, 'the snapshot, then the look-up').toBe(2);
    expect(api.products.size).toBe(1);
    expect(await claimsHeld()).toEqual({});
  });

  it('adopts a create whose answer was lost after it was applied, found by its fields', async () => {
    api.hide = ['sku'];
    api.loseNextCreateAnswer = true;
    api.faults.create.push(lostAnswer());

    const outcome = await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));

    expect(outcome).toMatchObject({ action: 'create', status: 'ok', productId: '1' });
    expect(api.products.size).toBe(1);
    expect(await claimsHeld()).toEqual({});
  });

  it('waits for a key another live create holds, then diffs against what it made', async () => {
    const keys = new RedisKeys(prefix);
    const other = new CreateClaims(redis, keys, REF, () => clock.now);
    const held = await other.claim('A', 'run-other');
    expect(held.kind).toBe('claimed');
    // The holder lives (renews its claim): time does not run out while this row waits.
    let polled: () => void = () => undefined;
    const firstPoll = new Promise<void>((resolve) => {
      polled = resolve;
    });
    const waiting = sync(
      context(RUN, async () => {
        polled();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }),
      row({ sku: 'A', name: 'Lamp', price: 2 }),
    );
    // The other run's create lands and is recorded while this row waits.
    await firstPoll;
    const made = await api.client.createProduct({ sku: 'A', name: 'Lamp', price: 2 });
    await new IdMap(redis, keys, REF).remember(
      'A',
      { id: made.id, sent: { sku: 'A', name: 'Lamp', price: 2 } },
      held.kind === 'claimed' ? held.token : '',
    );

    expect(await waiting).toMatchObject({ action: 'unchanged', productId: made.id });
    expect(api.calls.create).toBe(1);
  });

  it('takes over a claim whose holder stopped renewing it, after a look-up', async () => {
    const keys = new RedisKeys(prefix);
    await new CreateClaims(redis, keys, REF, () => clock.now - CLAIM_MS - 1).claim('A', 'run-dead');

    const outcome = await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));

    expect(outcome).toMatchObject({ action: 'create', status: 'ok' });
    expect(api.calls).toMatchObject({ create: 1, list: 2 });
    expect(await claimsHeld()).toEqual({});
  });

  it('looks up a killed worker’s claims, gone stale a second apart, with one read of the products', async () => {
    const keys = new RedisKeys(prefix);
    // Its last renewals: A's claim expired a moment ago, B's expires in a second (still held).
    await new CreateClaims(redis, keys, REF, () => clock.now - CLAIM_MS - 1).claim('A', 'run-dead');
    await new CreateClaims(redis, keys, REF, () => clock.now - CLAIM_MS + 1_000).claim('B', 'run-dead');
    const ctx = context();
    const rows = [row({ sku: 'A', name: 'Lamp', price: 2 }, 1), row({ sku: 'B', name: 'Vase', price: 3 }, 2)];
    await ctx.index.load(api.client.listProducts());
    const lookups = await ctx.index.lookup(rows);
    // The killed worker's POST of A was applied; its answer never recorded.
    await api.client.createProduct({ sku: 'A', name: 'Lamp', price: 2 });

    const outcomes = await Promise.all(
      rows.map((upsert) => syncRow(ctx, upsert, lookups.get(upsert.row) ?? {})),
    );

    expect(outcomes.map((outcome) => [outcome.action, outcome.status, outcome.productId])).toEqual([
      ['create', 'ok', '1'],
      ['create', 'ok', '2'],
    ]);
    // The killed worker's POST above and B's; the run's own read, then one look-up for both rows.
    expect(api.calls).toMatchObject({ create: 2, list: 2 });
    expect(await claimsHeld()).toEqual({});
  });

  const gonePut = () => new NotFoundError({ method: 'PUT', path: '/products?id=1', status: 404 });
  /** The id map's product under A, and the key the reverse entry of product 1 names. */
  async function mapped() {
    const idMap = new IdMap(redis, new RedisKeys(prefix), REF);
    const known = await idMap.getMany(['A']);
    return { A: known.get('A')?.id, of1: (await idMap.keysOfIds(['1'])).get('1') };
  }

  it('creates once again a product gone since (404 on PUT), and maps the key to it', async () => {
    await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));
    api.faults.update.push(gonePut());

    const outcome = await sync(context('run-2'), row({ sku: 'A', name: 'Lamp, brass', price: 2 }));

    expect(outcome).toMatchObject({ action: 'create', status: 'ok', productId: '2' });
    expect(api.calls.create).toBe(2);
    expect(await mapped()).toEqual({ A: '2', of1: undefined });
    expect(await claimsHeld()).toEqual({});
  });

  it('keeps the mapping of a product whose PUT answered 404 when the create finds no API there', async () => {
    await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));
    api.faults.update.push(gonePut());
    const noApi = new EndpointNotFoundError(
      { method: 'POST', path: '/products', status: 404 },
      'Not Found',
      'http://127.0.0.1:1/api/v1',
    );
    api.faults.create.push(noApi);

    await expect(sync(context('run-2'), row({ sku: 'A', name: 'Lamp, brass', price: 2 }))).rejects.toBe(
      noApi,
    );

    expect(await mapped()).toEqual({ A: '1', of1: 'A' });
    expect(await claimsHeld()).toEqual({});
    // Once the API answers again, the row is an update of that product: nothing is created twice.
    const next = await sync(context('run-2'), row({ sku: 'A', name: 'Lamp, brass', price: 2 }));
    expect(next).toMatchObject({ action: 'update', status: 'ok', productId: '1' });
    expect(api.products.size).toBe(1);
  });

  it('drops the mapping of a product whose PUT answered 404 once the API refuses its create', async () => {
    await sync(context(), row({ sku: 'A', name: 'Lamp', price: 2 }));
    api.faults.update.push(gonePut());
    api.faults.create.push(new InvalidRequestError({ method: 'POST', path: '/products', status: 400 }));

    const outcome = await sync(context('run-2'), row({ sku: 'A', name: 'Lamp, brass', price: 2 }));

    expect(outcome).toMatchObject({ action: 'create', status: 'failed' });
    expect(await mapped()).toEqual({ A: undefined, of1: undefined });
    expect(await claimsHeld()).toEqual({});
  });
});
