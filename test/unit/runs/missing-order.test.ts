import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineOfMember, missingMember, missingSortKey } from '../../../src/runs/missing-order.js';

/** Byte order, as Redis compares the members of a sorted set whose scores are equal. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const sortedById = (ids: string[]) => [...ids].sort((a, b) => byBytes(missingSortKey(a), missingSortKey(b)));

describe('the order of missing lines', () => {
  it('puts integer ids in numeric order, not text order', () => {
    expect(sortedById(['10', '9', '100', '2', '0', '11'])).toEqual(['0', '2', '9', '10', '11', '100']);
  });

  it('orders integer ids longer than a double holds exactly', () => {
    const big = ['18446744073709551616', '18446744073709551615', '9007199254740993', '9007199254740992'];
    expect(sortedById(big)).toEqual([
      '9007199254740992',
      '9007199254740993',
      '18446744073709551615',
      '18446744073709551616',
    ]);
  });

  it('puts ids that are not integers after the integer ones, in byte order', () => {
    expect(sortedById(['b-2', '7', 'a-1', '007', '12'])).toEqual(['7', '12', '007', 'a-1', 'b-2']);
  });

  it('sorts any set of non-negative integers as numbers', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.bigInt({ min: 0n, max: 10n ** 30n }), { maxLength: 50 }), (numbers) => {
        const ids = numbers.map(String);
        const expected = [...numbers].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String);
        expect(sortedById(ids)).toEqual(expected);
      }),
    );
  });

  it('gives back the stored line of a member, whatever the id holds', () => {
    const line = JSON.stringify(['key', 'missing', 'a\u0000b', 'ok', '']);
    expect(lineOfMember(missingMember('a\u0000b', line))).toBe(line);
    expect(lineOfMember(missingMember('42', '["k"]'))).toBe('["k"]');
  });
});
