import { describe, expect, it } from 'vitest';
import type { ProductFields, ProductUpsert } from '../../../src/interfaces.js';
import { type CompactValue, compactEquals, compactValue } from '../../../src/sync/compact-value.js';
import { diffProduct, type IndexedProduct } from '../../../src/sync/diff.js';

const upsert = (fields: ProductFields): ProductUpsert => ({
  kind: 'upsert',
  row: 1,
  line: 2,
  key: String(fields.sku ?? 'SKU-1'),
  fields,
});

/** The remote product as the run's index keeps it: compact values, as RemoteIndex stores them. */
const remote = (fields: Record<string, unknown>, id = '7'): IndexedProduct => {
  const values: Record<string, CompactValue> = {};
  for (const [name, value] of Object.entries(fields)) {
    const compact = compactValue(value);
    if (compact !== undefined) values[name] = compact;
  }
  return { id, values };
};

const longText = (variant: string) => `${'A fine wool scarf, hand-knitted. '.repeat(160)}${variant}`;

describe('diffProduct', () => {
  describe('when no remote product matches the row', () => {
    it('creates it with every field of the row', () => {
      const fields = { sku: 'SKU-1', name: 'Scarf', price: 12.5 };
      expect(diffProduct(upsert(fields), undefined)).toEqual({ action: 'create', fields });
    });

    it('reports a row without a name as invalid rather than sending it', () => {
      expect(diffProduct(upsert({ sku: 'SKU-1', price: 12.5 }), undefined)).toEqual({
        action: 'invalid',
        reason: 'missing name for a new product',
      });
    });

    it('says so when it is --fields that leaves the name or the price out', () => {
      const sent = new Set(['price', 'stock']);
      expect(diffProduct(upsert({ sku: 'SKU-1', price: 12.5 }), undefined, undefined, { sent })).toEqual({
        action: 'invalid',
        reason: 'missing name for a new product (--fields leaves name out)',
      });
      expect(
        diffProduct(upsert({ sku: 'SKU-1', name: 'Scarf' }), undefined, undefined, {
          sent: new Set(['name']),
        }),
      ).toMatchObject({ reason: 'missing price for a new product (--fields leaves price out)' });
    });

    it('names the column the file lacks when that is why the row has no name (an Amazon file without item_name)', () => {
      const row = { ...upsert({ sku: 'SKU-1', price: 12.5 }), unnamed: 'the file has no item_name column' };
      expect(diffProduct(row, undefined)).toEqual({
        action: 'invalid',
        reason: 'missing name for a new product (the file has no item_name column)',
      });
      // An existing product needs no name: the update goes out.
      expect(diffProduct(row, remote({ sku: 'SKU-1', name: 'Tee', price: 10 }))).toMatchObject({
        action: 'update',
        fields: { price: 12.5 },
      });
    });

    it('reports a row without a price as invalid rather than sending it', () => {
      expect(diffProduct(upsert({ sku: 'SKU-1', name: 'Scarf' }), undefined)).toEqual({
        action: 'invalid',
        reason: 'missing price for a new product',
      });
    });

    it('skips a row its platform sells without a price of its own, with the reason', () => {
      const bundle = { ...upsert({ sku: 'B-1', name: 'Kit' }), unpriced: 'bundle priced from its parts' };
      expect(diffProduct(bundle, undefined)).toEqual({
        action: 'skipped',
        reason: 'bundle priced from its parts',
      });
    });
  });

  describe('a row the source does not sell, sent without status (--fields)', () => {
    const draft = (fields: ProductFields): ProductUpsert => ({
      ...upsert(fields),
      notSold: 'Shopify Status draft',
    });

    it('creates nothing, with the reason, before any field it lacks is a reason', () => {
      const reason =
        'not sold in the source (Shopify Status draft) and status is not among the fields sent (--fields): not created, so that it does not go live';
      expect(diffProduct(draft({ sku: 'J-30', name: 'Jeans', price: 95 }), undefined)).toEqual({
        action: 'skipped',
        reason,
      });
      expect(
        diffProduct(draft({ quantity: 7 }), undefined, undefined, { sent: new Set(['quantity']) }),
      ).toEqual({ action: 'skipped', reason });
    });

    it('updates the product that exists with what changed, and says its status is left as it is', () => {
      const kept =
        'not sold in the source (Shopify Status draft): status not sent (--fields), left as the marketplace has it';
      const listed = remote({ sku: 'J-30', price: 95, quantity: 15, status: 'draft' });
      expect(diffProduct(draft({ price: 95, quantity: 7 }), listed)).toEqual({
        action: 'update',
        id: '7',
        fields: { quantity: 7 },
        notes: [kept],
        learned: {},
      });
      expect(diffProduct(draft({ price: 95, quantity: 15 }), listed)).toEqual({
        action: 'unchanged',
        id: '7',
        notes: [kept],
        learned: {},
      });
    });
  });

  describe('when the row has no price but the product exists', () => {
    it('updates the fields that changed: an update does not need a price', () => {
      const bundle = { ...upsert({ sku: 'B-1', name: 'Kit v2' }), unpriced: 'bundle priced from its parts' };
      expect(diffProduct(bundle, remote({ sku: 'B-1', name: 'Kit', price: 30 }))).toMatchObject({
        action: 'update',
        fields: { name: 'Kit v2' },
      });
    });
  });

  describe('when the remote product holds the same values', () => {
    it.each<[string, ProductFields, Record<string, unknown>]>([
      [
        'identical fields',
        { sku: 'S', name: 'Scarf', price: 12.5 },
        { sku: 'S', name: 'Scarf', price: 12.5 },
      ],
      [
        'a price of 12.5 against the remote "12.50"',
        { name: 'Scarf', price: 12.5 },
        { name: 'Scarf', price: '12.50' },
      ],
      ['a price of 12.5 against the remote 12.50 as a number', { price: 12.5 }, { price: 12.5 }],
      ['a whole price against the remote "1299.00"', { price: 1299 }, { price: '1299.00' }],
      ['a quantity of 3 against the remote "3"', { quantity: 3 }, { quantity: '3' }],
      ['a cent price against the remote "0.050"', { price: 0.05 }, { price: '0.050' }],
      ['a boolean against the same boolean', { active: true }, { active: true }],
      ['the same image list', { images: ['a.jpg', 'b.jpg'] }, { images: ['a.jpg', 'b.jpg'] }],
      [
        'the same 5,000-character description',
        { description: longText('end') },
        { description: longText('end') },
      ],
      [
        'the same long image list',
        { images: Array.from({ length: 40 }, (_, i) => `https://cdn.example.com/${i}.jpg`) },
        { images: Array.from({ length: 40 }, (_, i) => `https://cdn.example.com/${i}.jpg`) },
      ],
    ])('leaves it unchanged with %s', (_case, fields, theirs) => {
      expect(diffProduct(upsert(fields), remote(theirs))).toEqual({
        action: 'unchanged',
        id: '7',
        notes: [],
        learned: {},
      });
    });

    it('ignores remote fields the row does not carry', () => {
      const result = diffProduct(upsert({ name: 'Scarf' }), remote({ name: 'Scarf', colour: 'red' }));
      expect(result).toEqual({ action: 'unchanged', id: '7', notes: [], learned: {} });
    });
  });

  describe('when some values differ', () => {
    it.each<[string, ProductFields, Record<string, unknown>, ProductFields]>([
      [
        'a new price',
        { sku: 'S', name: 'Scarf', price: 13 },
        { sku: 'S', name: 'Scarf', price: '12.50' },
        { price: 13 },
      ],
      ['a price off by a cent', { price: 12.51 }, { price: 12.5 }, { price: 12.51 }],
      [
        'a new name only',
        { name: 'Wool scarf', price: 12.5 },
        { name: 'Scarf', price: 12.5 },
        { name: 'Wool scarf' },
      ],
      ['a field the remote lacks', { name: 'Scarf', colour: 'red' }, { name: 'Scarf' }, { colour: 'red' }],
      ['a name that only looks like a number', { name: '12.50' }, { name: '12.5' }, { name: '12.50' }],
      ['a flipped boolean', { active: false }, { active: true }, { active: false }],
      [
        'one image more',
        { images: ['a.jpg', 'b.jpg'] },
        { images: ['a.jpg'] },
        { images: ['a.jpg', 'b.jpg'] },
      ],
      [
        'images in another order',
        { images: ['b.jpg', 'a.jpg'] },
        { images: ['a.jpg', 'b.jpg'] },
        { images: ['b.jpg', 'a.jpg'] },
      ],
      [
        'one character changed at the end of a 5,000-character description',
        { description: longText('end.') },
        { description: longText('end') },
        { description: longText('end.') },
      ],
    ])('sends only the changed fields for %s', (_case, fields, theirs, changed) => {
      expect(diffProduct(upsert(fields), remote(theirs))).toEqual({
        action: 'update',
        id: '7',
        fields: changed,
        notes: [],
        learned: {},
      });
    });
  });

  describe('when the API does not echo a field back (it hides sku)', () => {
    const theirs = remote({ name: 'Scarf', price: 12.5 });

    it('compares the field with what this tool last sent', () => {
      const result = diffProduct(upsert({ sku: 'S-1', name: 'Scarf', price: 12.5 }), theirs, {
        sent: { sku: 'S-1' },
      });
      expect(result).toEqual({ action: 'unchanged', id: '7', notes: [], learned: {} });
    });

    it('sends the field when it differs from what was sent', () => {
      const result = diffProduct(upsert({ sku: 'S-2', name: 'Scarf', price: 12.5 }), theirs, {
        sent: { sku: 'S-1' },
      });
      expect(result).toEqual({ action: 'update', id: '7', fields: { sku: 'S-2' }, notes: [], learned: {} });
    });

    it('sends the field when nothing was ever sent for it', () => {
      const result = diffProduct(upsert({ sku: 'S-1', name: 'Scarf', price: 12.5 }), theirs);
      expect(result).toEqual({ action: 'update', id: '7', fields: { sku: 'S-1' }, notes: [], learned: {} });
    });

    it('compares a digested long value that was sent', () => {
      const sent = { description: compactValue(longText('x')) as CompactValue };
      expect(diffProduct(upsert({ description: longText('x') }), remote({}), { sent })).toEqual({
        action: 'unchanged',
        id: '7',
        notes: [],
        learned: {},
      });
      expect(diffProduct(upsert({ description: longText('y') }), remote({}), { sent }).action).toBe('update');
    });
  });

  describe('when the match key differs from the listed one only by spaces at its edges', () => {
    // The row was matched to the product so (listed keys are read as cells are: trimmed): the
    // same key, not a change of it. Sent, the seller's SKU would change to one their ERP lacks.
    const note = 'sku is "SP " on the marketplace (a space at its end): matched as SP, kept';

    it('sends no key, and says the marketplace keeps its own', () => {
      const result = diffProduct(
        upsert({ sku: 'SP', name: 'Mug' }),
        remote({ sku: 'SP ', name: 'Mug' }),
        undefined,
        {
          matchBy: 'sku',
        },
      );
      expect(result).toEqual({ action: 'unchanged', id: '7', notes: [note], learned: {} });
    });

    it('sends the other fields that changed without it', () => {
      const result = diffProduct(
        upsert({ sku: 'SP', name: 'Big mug' }),
        remote({ sku: 'SP ', name: 'Mug' }),
        undefined,
        {
          matchBy: 'sku',
        },
      );
      expect(result).toEqual({
        action: 'update',
        id: '7',
        fields: { name: 'Big mug' },
        notes: [note],
        learned: {},
      });
    });

    it('whatever the match field, and only for it', () => {
      const byBarcode = diffProduct(
        upsert({ sku: 'S-1', barcode: '400', name: 'Mug' }),
        remote({ sku: 'S-1 ', barcode: '400 ', name: 'Mug' }),
        undefined,
        { matchBy: 'barcode' },
      );
      expect(byBarcode).toMatchObject({
        action: 'update',
        fields: { sku: 'S-1' },
        notes: ['barcode is "400 " on the marketplace (a space at its end): matched as 400, kept'],
      });
    });

    it('sends a key that differs otherwise (its case, a character inside)', () => {
      const result = diffProduct(
        upsert({ sku: 'SP', name: 'Mug' }),
        remote({ sku: 'sp ', name: 'Mug' }),
        undefined,
        {
          matchBy: 'sku',
        },
      );
      expect(result).toMatchObject({ action: 'update', fields: { sku: 'SP' }, notes: [] });
    });
  });

  describe('when the remote value was changed by hand', () => {
    it('updates it back although the last sent value equals the row', () => {
      const result = diffProduct(
        upsert({ name: 'Scarf', price: 12.5 }),
        remote({ name: 'Scarf', price: 9.99 }),
        { sent: { price: 12.5 } },
      );
      expect(result).toEqual({
        action: 'update',
        id: '7',
        fields: { price: 12.5 },
        notes: ['price changed on the marketplace: sent again'],
        learned: {},
      });
    });
  });
});

describe('compactValue', () => {
  it.each<[string, unknown, CompactValue | undefined]>([
    ['a number', 12.5, 12.5],
    ['a boolean', false, false],
    ['a short string', 'Scarf', 'Scarf'],
    ['a short list, as JSON', ['a', 'b'], '["a","b"]'],
    ['null', null, undefined],
    ['undefined', undefined, undefined],
  ])('keeps %s as it is', (_case, value, expected) => {
    expect(compactValue(value)).toBe(expected);
  });

  it('keeps a 64-character string and digests a 65-character one', () => {
    expect(compactValue('x'.repeat(64))).toBe('x'.repeat(64));
    expect(compactValue('x'.repeat(65))).toMatch(/^#sha1:[\w-]{27}$/);
  });

  it('digests a long string into a short one, the same each time', () => {
    const digest = compactValue(longText('z'));
    expect(typeof digest === 'string' && digest.length < 64).toBe(true);
    expect(compactValue(longText('z'))).toBe(digest);
    expect(compactValue(longText('Z'))).not.toBe(digest);
  });

  it('digests a short string that looks like a digest, so it cannot pass for one', () => {
    const digest = compactValue(longText('z')) as string;
    expect(compactValue(digest)).not.toBe(digest);
  });
});

describe('compactEquals', () => {
  it.each<[CompactValue, CompactValue, boolean]>([
    [12.5, '12.50', true],
    ['12.50', 12.5, true],
    [3, '3', true],
    [3, '3.0', true],
    [3, '3.01', false],
    [3, 'three', false],
    ['12.50', '12.5', false],
    [true, 'true', false],
    ['a', 'a', true],
  ])('%j and %j are equal: %s', (a, b, expected) => {
    expect(compactEquals(a, b)).toBe(expected);
  });
});
