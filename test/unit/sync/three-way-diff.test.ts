import { describe, expect, it } from 'vitest';
import type { ProductFields, ProductUpsert } from '../../../src/interfaces.js';
import { compactFields } from '../../../src/sync/compact-value.js';
import {
  diffProduct,
  echoDigest,
  type IndexedProduct,
  keepRemoteOf,
  memoryAfterWrite,
  memoryOfShown,
  notApplied,
  UNKNOWN_ECHO,
} from '../../../src/sync/diff.js';

const row = (fields: ProductFields): ProductUpsert => ({
  kind: 'upsert',
  row: 1,
  line: 2,
  key: 'S-1',
  fields,
});
const listed = (fields: Record<string, unknown>): IndexedProduct => ({
  id: '7',
  values: compactFields(fields),
});

// An API that keeps its own form of what it is sent (sandbox --normalize): cents, trimmed names, tag objects.
const SENT = { sku: 'S-1', name: '  Wool   scarf ', price: 1.005, tags: ['red', 'warm'] };
const KEPT = { sku: 'S-1', name: 'Wool scarf', price: 1.01, tags: [{ name: 'red' }, { name: 'warm' }] };

describe('the three-way diff', () => {
  describe('after a write whose answer showed the API’s own form', () => {
    const memory = memoryAfterWrite(undefined, SENT, compactFields(KEPT));

    it('remembers an echo only for the fields shown otherwise than sent', () => {
      expect(Object.keys(memory.echo ?? {}).sort()).toEqual(['name', 'price', 'tags']);
      expect(memory.sent).toEqual(compactFields(SENT));
    });

    it('leaves the row unchanged while the source says the same and the API shows the same', () => {
      expect(diffProduct(row(SENT), listed(KEPT), memory)).toMatchObject({ action: 'unchanged', notes: [] });
    });

    it('sends a field the source changed, and only that one', () => {
      const result = diffProduct(row({ ...SENT, price: 2 }), listed(KEPT), memory);
      expect(result).toMatchObject({ action: 'update', fields: { price: 2 }, notes: [] });
    });

    it('sends again a field changed on the marketplace since (drift), and says so', () => {
      const result = diffProduct(row(SENT), listed({ ...KEPT, name: 'Scarf (sale!)' }), memory);
      expect(result).toMatchObject({
        action: 'update',
        fields: { name: SENT.name },
        notes: ['name changed on the marketplace: sent again'],
      });
    });

    it('keeps a field changed on the marketplace with --keep-remote-edits, and says so', () => {
      const edited = listed({ ...KEPT, name: 'Scarf (sale!)', price: 9 });
      const result = diffProduct(row(SENT), edited, memory, { keepRemote: new Set(['name']) });
      expect(result).toMatchObject({
        action: 'update',
        fields: { price: SENT.price },
        notes: ['name changed on the marketplace, kept', 'price changed on the marketplace: sent again'],
      });
      const all = diffProduct(row(SENT), edited, memory, { keepRemote: keepRemoteOf(['all']) });
      expect(all).toMatchObject({ action: 'unchanged' });
    });

    it('sends the source’s new value of a kept field when the source changed it too', () => {
      const result = diffProduct(
        row({ ...SENT, name: 'Cashmere scarf' }),
        listed({ ...KEPT, name: 'Edited' }),
        memory,
        {
          keepRemote: 'all',
        },
      );
      expect(result).toMatchObject({ action: 'update', fields: { name: 'Cashmere scarf' }, notes: [] });
    });

    it('leaves a field unchanged when the source now says what the API shows', () => {
      const result = diffProduct(row({ ...SENT, price: 1.01 }), listed(KEPT), memory);
      expect(result.action).toBe('unchanged');
    });
  });

  describe('after a write the API accepted but did not apply (its answer shows the old value)', () => {
    const before = compactFields({ sku: 'S-1', stock: 5, price: 3 });
    const sent = { stock: 0, price: 4 };
    const shown = compactFields({ sku: 'S-1', stock: 5, price: 4 });

    it('names the fields shown as they were before the write, not those shown as sent', () => {
      expect(notApplied(sent, before, shown)).toEqual(['stock']);
      expect(notApplied(sent, before, null)).toEqual([]);
    });

    it('is not a field the API keeps in its own form (shown otherwise than before and than sent)', () => {
      expect(
        notApplied({ price: 1.005 }, compactFields({ price: 3 }), compactFields({ price: 1.01 })),
      ).toEqual([]);
    });

    it('says so on later runs while it lasts, with no write', () => {
      const memory = memoryAfterWrite(undefined, sent, shown, notApplied(sent, before, shown));
      const result = diffProduct(
        row({ sku: 'S-1', ...sent }),
        listed({ sku: 'S-1', stock: 5, price: 4 }),
        memory,
      );
      expect(result).toMatchObject({
        action: 'unchanged',
        notes: ['accepted but not applied: the API still shows stock 5'],
      });
    });

    it('forgets it when the field is written again and applied', () => {
      const memory = memoryAfterWrite(undefined, sent, shown, ['stock']);
      const later = memoryAfterWrite(memory, { stock: 2 }, compactFields({ stock: 2 }));
      expect(later.unapplied).toBeUndefined();
    });
  });

  describe('after a write whose answer showed no product', () => {
    const memory = memoryAfterWrite(undefined, SENT, null);

    it('marks every sent field as not known yet', () => {
      expect(Object.values(memory.echo ?? {})).toEqual([
        UNKNOWN_ECHO,
        UNKNOWN_ECHO,
        UNKNOWN_ECHO,
        UNKNOWN_ECHO,
      ]);
    });

    it('learns the echo from the next list read instead of writing again', () => {
      const result = diffProduct(row(SENT), listed(KEPT), memory);
      expect(result).toMatchObject({ action: 'unchanged' });
      expect(result.action === 'unchanged' && result.learned).toEqual({
        name: echoDigest('Wool scarf'),
        price: echoDigest(1.01),
        tags: echoDigest(compactFields(KEPT).tags as string),
      });
    });
  });

  it('keeps the memory of fields not sent in a later write', () => {
    const first = memoryAfterWrite(undefined, SENT, compactFields(KEPT));
    const second = memoryAfterWrite(first, { price: 3 }, { price: 3 });
    expect(second.sent).toMatchObject({ name: SENT.name, price: 3 });
    expect(second.echo).not.toHaveProperty('price');
    expect(second.echo).toHaveProperty('name');
  });

  it('remembers a long sent string as a short digest, and still tells it unchanged or changed', () => {
    const description = 'A product, described in a few words (1011)';
    const memory = memoryAfterWrite(undefined, { sku: 'S-1', description }, null);
    expect(memory.sent.sku).toBe('S-1');
    expect(String(memory.sent.description).length).toBeLessThan(description.length);
    // The API does not list it: only the memory can tell.
    expect(diffProduct(row({ description }), listed({}), memory).action).toBe('unchanged');
    expect(diffProduct(row({ description: `${description}.` }), listed({}), memory).action).toBe('update');
  });

  it('digests numbers as decimals: 12.5 and "12.50" are one echo', () => {
    expect(echoDigest(12.5)).toBe(echoDigest('12.50'));
    expect(echoDigest(12.5)).not.toBe(echoDigest(12.51));
  });

  describe('with create-only fields', () => {
    const createOnly = new Set(['price']);

    it('never puts them in an update, and notes that they differ', () => {
      const result = diffProduct(
        row({ name: 'Scarf', price: 9 }),
        listed({ name: 'Scarf', price: 12 }),
        undefined,
        {
          createOnly,
        },
      );
      expect(result).toEqual({
        action: 'unchanged',
        id: '7',
        notes: ['price differs (create-only: not sent in an update)'],
        learned: {},
      });
    });

    it('still sends them on create', () => {
      expect(diffProduct(row({ name: 'Scarf', price: 9 }), undefined, undefined, { createOnly })).toEqual({
        action: 'create',
        fields: { name: 'Scarf', price: 9 },
      });
    });

    it('updates the other fields alone', () => {
      const result = diffProduct(
        row({ name: 'Shawl', price: 9 }),
        listed({ name: 'Scarf', price: 12 }),
        undefined,
        {
          createOnly,
        },
      );
      expect(result).toMatchObject({ action: 'update', fields: { name: 'Shawl' } });
    });

    const unread: IndexedProduct = { id: '7', values: {}, unread: true };
    const sent = memoryAfterWrite(undefined, { name: 'Scarf', price: 12 }, null);

    it('the product not read, notes that they differ from what this tool last sent', () => {
      expect(diffProduct(row({ name: 'Scarf', price: 9 }), unread, sent, { createOnly })).toEqual({
        action: 'unchanged',
        id: '7',
        notes: ['price differs (create-only: not sent in an update)'],
        learned: {},
      });
      expect(diffProduct(row({ name: 'Scarf', price: 12 }), unread, sent, { createOnly })).toMatchObject({
        notes: [],
      });
    });

    it('say nothing of a value the source still gives as sent that the API shows in its own form', () => {
      const memory = memoryAfterWrite(
        undefined,
        { name: 'Scarf', price: 12.345 },
        compactFields({ price: 12.35 }),
      );
      const result = diffProduct(
        row({ name: 'Scarf', price: 12.345 }),
        listed({ name: 'Scarf', price: 12.35 }),
        memory,
        {
          createOnly,
        },
      );
      expect(result).toMatchObject({ action: 'unchanged', notes: [] });
    });
  });
});

describe('memoryOfShown: what an --incremental run records of a product it read', () => {
  const before = memoryAfterWrite(undefined, { sku: 'S-1', name: 'Scarf', price: 20 }, null);

  it('records each field the product shows as the source says', () => {
    const memory = memoryOfShown(
      before,
      { sku: 'S-1', name: 'Scarf', price: 20, quantity: 3 },
      {
        sku: 'S-1',
        name: 'Scarf',
        price: 20,
        quantity: 3,
      },
    );
    expect(memory?.sent).toMatchObject({ quantity: 3 });
  });

  it('never records a value the product does not show (a create-only field left out, a change about to be sent)', () => {
    expect(
      memoryOfShown(before, { sku: 'S-1', name: 'Scarf', price: 21 }, { name: 'Scarf', price: 20 }),
    ).toBeNull();
  });

  it('records the match key as the row has it where the product shows it with spaces at its edges', () => {
    // The next run relying on the record then knows the key as the same: it sends no sku.
    const memory = memoryOfShown(undefined, { sku: 'SP', name: 'Mug' }, { sku: 'SP ', name: 'Mug' }, 'sku');
    expect(memory?.sent).toEqual({ sku: 'SP', name: 'Mug' });
    expect(
      diffProduct(
        row({ sku: 'SP', name: 'Mug' }),
        { id: '7', values: {}, unread: true },
        memory ?? undefined,
      ),
    ).toMatchObject({ action: 'unchanged' });
    // Not for another field than the match field.
    expect(memoryOfShown(undefined, { name: 'Mug' }, { name: 'Mug ' }, 'sku')).toBeNull();
  });

  it('records nothing of a product it did not read', () => {
    expect(memoryOfShown(before, { sku: 'S-1', name: 'Shawl', price: 21 }, {})).toBeNull();
  });

  it('drops what it knew of an earlier value of a field now recorded anew (its echo, not applied)', () => {
    const kept = memoryAfterWrite(undefined, { name: 'Scarf' }, compactFields({ name: 'SCARF' }));
    const memory = memoryOfShown({ ...kept, unapplied: ['name'] }, { name: 'Shawl' }, { name: 'Shawl' });
    expect(memory).toEqual({ sent: { name: 'Shawl' } });
  });
});
