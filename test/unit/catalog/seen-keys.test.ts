import { describe, expect, it } from 'vitest';
import { SeenKeys } from '../../../src/catalog/seen-keys.js';

describe('the duplicate-key check (SeenKeys)', () => {
  it('answers the first row of a key seen before, and records a new key', () => {
    const seen = new SeenKeys();
    expect(seen.firstRow('SKU-1', 1)).toBeUndefined();
    expect(seen.firstRow('SKU-2', 2)).toBeUndefined();
    expect(seen.firstRow('SKU-1', 3)).toBe(1);
    expect(seen.firstRow('SKU-1', 4)).toBe(1);
    expect(seen.size).toBe(2);
  });

  it('rowOf finds a key seen before and records nothing, whatever was asked before', () => {
    const seen = new SeenKeys();
    expect(seen.firstRow('SKU-1', 1)).toBeUndefined();
    expect(seen.rowOf('SKU-1')).toBe(1);
    expect(seen.rowOf('SKU-2')).toBeUndefined();
    expect(seen.rowOf('x'.repeat(400_000))).toBeUndefined();
    expect(seen.size).toBe(1);
    // A key asked only is still new; the key written after it is kept whole.
    expect(seen.firstRow('SKU-2', 2)).toBeUndefined();
    expect(seen.firstRow('SKU-3', 3)).toBeUndefined();
    expect([seen.rowOf('SKU-2'), seen.rowOf('SKU-3'), seen.size]).toEqual([2, 3, 3]);
  });

  it('tells apart keys that differ only in bytes of non-ASCII text, length or case', () => {
    const seen = new SeenKeys();
    const keys = ['Crème', 'Creme', 'crème', 'Crème ', '抹茶', '抹', '🍫', '', 'a', 'A', 'aa'];
    keys.forEach((key, i) => {
      expect(seen.firstRow(key, i + 1)).toBeUndefined();
    });
    keys.forEach((key, i) => {
      expect(seen.firstRow(key, 100 + i)).toBe(i + 1);
    });
  });

  it('stays exact over 300,000 keys, as its table and buffers grow', () => {
    const seen = new SeenKeys();
    const count = 300_000;
    const misses: number[] = [];
    for (let row = 1; row <= count; row++)
      if (seen.firstRow(`SKU-${row}`, row) !== undefined) misses.push(row);
    const wrong: number[] = [];
    for (let row = 1; row <= count; row++)
      if (seen.firstRow(`SKU-${row}`, count + row) !== row) wrong.push(row);
    expect(misses, 'new keys taken for seen ones').toEqual([]);
    expect(wrong, 'seen keys answered with the wrong row').toEqual([]);
    expect(seen.firstRow(`SKU-${count + 1}`, count + 1)).toBeUndefined();
    expect(seen.size).toBe(count + 1);
  });

  it('keeps keys longer than its first buffer', () => {
    const seen = new SeenKeys();
    const long = 'x'.repeat(200_000);
    expect(seen.firstRow(long, 1)).toBeUndefined();
    expect(seen.firstRow(`${long}y`, 2)).toBeUndefined();
    expect(seen.firstRow(long, 3)).toBe(1);
  });

  it('stays exact for keys of many lengths across its pages of bytes, and for keys over a page', () => {
    const seen = new SeenKeys();
    // 3,000 keys of 1 to 1,500 characters (some multi-byte): several pages of bytes, keys that
    // do not fit in the rest of one, and a page left by a key that was seen before.
    const keys = Array.from({ length: 3_000 }, (_, i) =>
      `${i % 7 === 0 ? 'é' : 'k'}${i}`.padEnd((i * 37) % 1_500, '-'),
    );
    const huge = 'h'.repeat(400_000);
    keys.push(huge, `${huge}h`, '');
    keys.forEach((key, i) => {
      expect(seen.firstRow(key, i + 1)).toBeUndefined();
      expect(seen.firstRow(key, 10_000 + i)).toBe(i + 1);
    });
    keys.forEach((key, i) => {
      expect(seen.firstRow(key, 20_000 + i)).toBe(i + 1);
    });
    expect(seen.size).toBe(keys.length);
  });
});
