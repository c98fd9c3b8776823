// The sandbox's normalized form (`normalize: true`), as tables: pure functions, no server.
import { describe, expect, it } from 'vitest';
import {
  isTagsInput,
  normalizeName,
  normalizeProduct,
  normalizeTags,
  roundToCents,
} from '../../../src/sandbox/normalize.js';

describe('normalizeName', () => {
  it.each([
    ['Lamp', 'Lamp'],
    ['  Lamp  ', 'Lamp'],
    ['Desk   lamp', 'Desk lamp'],
    ['\tDesk \n\n lamp\t', 'Desk lamp'],
    ['Desk\u00a0\u00a0lamp', 'Desk lamp'],
    ['a  b   c', 'a b c'],
  ])('%j becomes %j', (name, stored) => {
    expect(normalizeName(name)).toBe(stored);
  });
});

describe('roundToCents', () => {
  it.each([
    [0, 0],
    [-0, 0],
    [12, 12],
    [12.5, 12.5],
    [12.34, 12.34],
    [1.005, 1.01],
    [1.004, 1],
    [2.675, 2.68],
    [19.999, 20],
    [0.125, 0.13],
    [0.1 + 0.2, 0.3],
    [1.5699999999999998, 1.57],
    [8.345, 8.35],
    [0.005, 0.01],
    [0.0049, 0],
    [1e-7, 0],
    [999_999_999.995, 1_000_000_000],
    [-1.005, -1.01],
    [-0.001, 0],
    [1e21, 1e21],
  ])('%d is stored as %d', (value, stored) => {
    expect(Object.is(roundToCents(value), stored)).toBe(true);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('refuses %d', (value) => {
    expect(() => roundToCents(value)).toThrow(RangeError);
  });
});

describe('normalizeTags', () => {
  it.each<[string | string[], Array<{ name: string }>]>([
    [
      ['red', 'blue'],
      [{ name: 'red' }, { name: 'blue' }],
    ],
    [
      [' red ', '', '  ', 'blue'],
      [{ name: 'red' }, { name: 'blue' }],
    ],
    ['red,blue', [{ name: 'red' }, { name: 'blue' }]],
    [' red , blue ,, ', [{ name: 'red' }, { name: 'blue' }]],
    ['red', [{ name: 'red' }]],
    ['', []],
    [[], []],
    [['dark red'], [{ name: 'dark red' }]],
  ])('%j becomes %j', (tags, stored) => {
    expect(normalizeTags(tags)).toEqual(stored);
  });

  it.each([
    ['red', true],
    [['red'], true],
    [[], true],
    [[1], false],
    [[{ name: 'red' }], false],
    [3, false],
    [null, false],
  ])('isTagsInput(%j) is %s', (value, expected) => {
    expect(isTagsInput(value)).toBe(expected);
  });
});

describe('normalizeProduct', () => {
  it('normalizes name, price and tags and leaves every other field as it is', () => {
    const sent = { name: ' Desk  lamp ', price: 1.005, tags: 'red, blue', sku: ' L-1 ', quantity: 3 };
    expect(normalizeProduct(sent)).toEqual({
      name: 'Desk lamp',
      price: 1.01,
      tags: [{ name: 'red' }, { name: 'blue' }],
      sku: ' L-1 ',
      quantity: 3,
    });
    expect(sent.name).toBe(' Desk  lamp ');
  });

  it('adds no field that was not sent (a partial update stays partial)', () => {
    expect(normalizeProduct({ price: 19.999 })).toEqual({ price: 20 });
  });
});
