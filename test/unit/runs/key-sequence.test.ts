import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeKeySequence, encodeKeySequence, successorKey } from '../../../src/runs/key-sequence.js';

describe('the match keys of a packed block, each as it differs from the one before', () => {
  it('gives back any sequence of keys exactly, in order', () => {
    const key = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.nat({ max: 2000 }).map((n) => `SKU-${String(n).padStart(4, '0')}`),
      fc.constantFrom('9', '09', '99', 'A-9', 'A-10', '', '-1', '0', '1e3', '😀1', '😀2'),
    );
    fc.assert(
      fc.property(fc.array(key, { maxLength: 60 }), (keys) => {
        expect(decodeKeySequence(encodeKeySequence(keys))).toEqual(keys);
        expect(decodeKeySequence(JSON.parse(JSON.stringify(encodeKeySequence(keys))))).toEqual(keys);
      }),
    );
  });

  it('keeps a key one number after the one before as a mark, and a shared start once', () => {
    const [shared, rest] = encodeKeySequence(['SKU-000099', 'SKU-000100', 'SKU-000102', 'SKU-000103']);
    expect(shared).toEqual([0, -1, 9, -1]);
    expect(rest).toEqual(['SKU-000099', '', '2', '']);
  });

  it('counts the trailing number on, zero-padded to its width', () => {
    expect(successorKey('SKU-0099')).toBe('SKU-0100');
    expect(successorKey('A-99')).toBe('A-100');
    expect(successorKey('99999999999999999999')).toBe('100000000000000000000');
    expect(successorKey('SKU-A')).toBeNull();
  });

  it('reads codes forged in Redis without failing', () => {
    expect(
      decodeKeySequence([
        [-1, 99, -5],
        ['A', 'B', 'C'],
      ]),
    ).toEqual(['A', 'AB', 'C']);
    expect(decodeKeySequence([[], ['x', 'y']])).toEqual(['x', 'y']);
  });
});
