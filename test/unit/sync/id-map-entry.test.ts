import { describe, expect, it } from 'vitest';
import { bucketOf, ID_MAP_BUCKETS } from '../../../src/sync/id-map-buckets.js';
import { decodeKnown, encodeKnown, encodeListed, type KnownProduct } from '../../../src/sync/id-map-entry.js';

const roundTrip = (key: string, product: KnownProduct) => decodeKnown(key, encodeKnown(key, product));

describe('id-map entry', () => {
  it('keeps a typical product in a short value: the key sent as sku once, known fields as letters', () => {
    const product = { id: '22', sent: { sku: 'SKU-00022', name: '#~ZQXhGhho_G', price: 22.2 } };
    const stored = encodeKnown('SKU-00022', product);
    expect(stored).toBe('22|kA|rBZQXhGhho_G|nD22.2');
    expect(decodeKnown('SKU-00022', stored)).toEqual(product);
  });

  it('gives back every type, the echo and the unapplied fields, in their order', () => {
    const product: KnownProduct = {
      id: '7',
      sent: { quantity: 0, active: false, status: 'draft', price: 12.5, sku: 'other', tiny: -0.000001 },
      echo: { price: 'abcDEF123_', name: '?' },
      unapplied: ['status', 'price'],
    };
    const back = roundTrip('K-1', product);
    expect(back).toEqual(product);
    expect(Object.keys(back.sent)).toEqual(Object.keys(product.sent));
    expect(typeof back.sent.status).toBe('string');
    expect(roundTrip('K', { id: '1', sent: { n: '12', b: 'true', t: true } }).sent).toEqual({
      n: '12',
      b: 'true',
      t: true,
    });
  });

  it('keeps separators, escapes and marks inside ids, names and values exactly', () => {
    const awkward = ['a|b', 'back\\slash', 'x=y', '|', '\\', '=', '.dot', '', '#~', 'ü|é'];
    for (const text of awkward) {
      const product: KnownProduct = {
        id: text,
        sent: { [text || 'empty']: text, [`${text}2`]: `#~${text}` },
        echo: { [text || 'empty']: text },
        unapplied: [text || 'empty'],
      };
      expect(roundTrip(text, product)).toEqual(product);
      expect(roundTrip(`${text}other`, product)).toEqual(product);
    }
  });

  it('leaves an empty memory as an id alone', () => {
    expect(encodeKnown('k', { id: '5', sent: {} })).toBe('5');
    expect(decodeKnown('k', '5')).toEqual({ id: '5', sent: {} });
  });

  it('marks a product recorded by a list read only, and leaves the mark out of any later record', () => {
    expect(encodeListed('5|6')).toBe('5\\|6|l');
    const listed = decodeKnown('k', encodeListed('5|6'));
    expect(listed).toEqual({ id: '5|6', sent: {}, listed: true });
    // A row's record of it (its memory spread from the listed one) makes it managed.
    expect(encodeKnown('k', { ...listed, sent: { price: 3 } })).toBe('5\\|6|nD3');
  });

  it('refuses what it did not write', () => {
    expect(() => decodeKnown('k', '5|zA')).toThrow(/unknown item/);
    expect(() => decodeKnown('k', '5|s~x')).toThrow(/unknown field code/);
  });
});

describe('id-map buckets', () => {
  it('spreads sequential keys evenly and always the same way', () => {
    const counts = new Array<number>(ID_MAP_BUCKETS).fill(0);
    for (let i = 0; i < 50_000; i++) {
      const bucket = bucketOf(`SKU-${String(i).padStart(6, '0')}`);
      counts[bucket] = (counts[bucket] ?? 0) + 1;
    }
    // ~49 per bucket, spread as by chance (σ ≈ 7): none near the 128 entries of a listpack.
    expect(Math.max(...counts)).toBeLessThan(80);
    expect(Math.min(...counts)).toBeGreaterThan(20);
    expect(bucketOf('SKU-00022')).toBe(bucketOf('SKU-00022'));
  });
});
