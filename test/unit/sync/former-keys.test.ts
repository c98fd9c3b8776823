import { describe, expect, it } from 'vitest';
import type { ProductUpsert } from '../../../src/interfaces.js';
import type { IndexedProduct } from '../../../src/sync/diff.js';
import { formerIdsOf, formerKeysOf, matchFormerKeys } from '../../../src/sync/former-keys.js';
import type { KnownProduct } from '../../../src/sync/id-map.js';

const upsert = (row: number, key: string, formerKey?: string): ProductUpsert => ({
  kind: 'upsert',
  row,
  line: row + 1,
  key,
  fields: { sku: key, name: 'Chair' },
  ...(formerKey ? { formerKey } : {}),
});

/** The look-up of one chunk: what the id map and the run's index hold, and the products listed. */
function match(
  upserts: ProductUpsert[],
  ids: (string | null)[],
  opts: {
    indexed?: Record<string, string>;
    recorded?: Record<string, string>;
    listed?: Record<string, IndexedProduct['values']>;
    fromRecord?: boolean;
  },
) {
  const ask = formerKeysOf(upserts);
  const known = new Map<string, KnownProduct>(
    Object.entries(opts.recorded ?? {}).map(([key, id]) => [key, { id, sent: {} }]),
  );
  const formerIds = formerIdsOf(
    ask,
    ask.keys.map((key) => opts.indexed?.[key] ?? null),
    known,
  );
  const byId = new Map(Object.entries(opts.listed ?? {}).map(([id, values]) => [id, { id, values }]));
  const resolved = [...ids];
  const verdicts = matchFormerKeys(upserts, resolved, {
    ask,
    formerIds,
    byId,
    fromRecord: opts.fromRecord === true,
    matchBy: 'sku',
  });
  return {
    ids: resolved,
    matches: Object.fromEntries(verdicts.matches),
    refused: Object.fromEntries(verdicts.refused),
  };
}

const F = 'woocommerce:id:69';

describe('matchFormerKeys: the product a row had before its SKU', () => {
  it('asks only the rows that carry a former key', () => {
    expect(formerKeysOf([upsert(1, 'A'), upsert(2, 'B', F), upsert(3, 'C')])).toEqual({ at: [1], keys: [F] });
  });

  it('a full read: the listed product without SKU is adopted, the row resolves to it', () => {
    const result = match([upsert(1, 'SKU-0'), upsert(2, 'CHAIR-01', F)], ['5', null], {
      indexed: { [F]: '7' },
      listed: { '5': { sku: 'SKU-0' }, '7': { name: 'Chair' } },
    });
    expect(result).toEqual({
      ids: ['5', '7'],
      matches: { 1: { key: F, id: '7', adopted: true } },
      refused: {},
    });
  });

  it('--incremental with no list read: the id map alone tells the product', () => {
    const result = match([upsert(1, 'CHAIR-01', F)], [null], { recorded: { [F]: '7' }, fromRecord: true });
    expect(result.ids).toEqual(['7']);
    expect(result.matches).toEqual({ 0: { key: F, id: '7', adopted: true } });
  });

  it('the SKU and the former key name the same product: nothing adopted, its old record still goes', () => {
    const result = match([upsert(1, 'CHAIR-01', F)], ['7'], {
      recorded: { [F]: '7' },
      listed: { '7': { sku: 'CHAIR-01' } },
    });
    expect(result).toEqual({ ids: ['7'], matches: { 0: { key: F, id: '7', adopted: false } }, refused: {} });
  });

  it('the SKU is another product: refused, naming both, and resolved to none', () => {
    const result = match([upsert(4, 'CHAIR-01', F)], ['5'], {
      recorded: { [F]: '7' },
      listed: { '5': { sku: 'CHAIR-01' }, '7': {} },
    });
    expect(result.ids).toEqual([null]);
    expect(result.refused).toEqual({
      4: 'sku CHAIR-01 is product 5, and its former key woocommerce:id:69 names product 7: two products are not made one (remove the one not wanted on the marketplace)',
    });
    // The id map alone says the same.
    expect(
      match([upsert(4, 'CHAIR-01', F)], ['5'], { recorded: { [F]: '7' }, fromRecord: true }).refused,
    ).toEqual(result.refused);
  });

  it('the product shows another SKU: refused, not renamed', () => {
    const result = match([upsert(4, 'CHAIR-01', F)], [null], {
      recorded: { [F]: '7' },
      listed: { '7': { sku: 'OTHER' } },
    });
    expect(result.refused).toEqual({
      4: 'its former key woocommerce:id:69 names product 7, whose sku is OTHER: not changed to CHAIR-01',
    });
  });

  it("a full read that does not list the former key's product: gone, so the SKU decides (a create, or its product)", () => {
    const gone = match([upsert(1, 'CHAIR-01', F)], [null], { recorded: { [F]: '7' }, listed: {} });
    expect(gone).toEqual({ ids: [null], matches: { 0: { key: F, id: '7', adopted: false } }, refused: {} });
    // The SKU's product recorded but not listed is gone too: the former key's listed product is the row's.
    const sku = match([upsert(1, 'CHAIR-01', F)], ['5'], { recorded: { [F]: '7' }, listed: { '7': {} } });
    expect(sku).toEqual({ ids: ['7'], matches: { 0: { key: F, id: '7', adopted: true } }, refused: {} });
  });

  it('a former key nothing is known under: no verdict', () => {
    expect(match([upsert(1, 'CHAIR-01', F)], [null], {})).toEqual({ ids: [null], matches: {}, refused: {} });
  });
});
