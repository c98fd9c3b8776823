import { describe, expect, it } from 'vitest';
import {
  compareDecimals,
  decimalEquals,
  decimalToNumber,
  isExactAsNumber,
  parseDecimal,
  toCents,
  toDecimal,
} from '../../../src/catalog/decimal.js';
import type { Decimal } from '../../../src/interfaces.js';

const d = (text: string) => text as Decimal;

describe('parseDecimal', () => {
  it.each([
    ['12.5', '12.5'],
    ['12.50', '12.5'],
    ['12,50', '12.5'],
    ['1.299,00', '1299'],
    ['1,299.00', '1299'],
    ['€ 12,50', '12.5'],
    ['12.50 EUR', '12.5'],
    ['$1,299.99', '1299.99'],
    ['$269.99 ', '269.99'],
    ['1 299,00', '1299'],
    ['1\u00a0299,00', '1299'],
    ["1'299.50", '1299.5'],
    ['1.299.000', '1299000'],
    ['1,299,000.5', '1299000.5'],
    ['-0', '0'],
    ['-0.00', '0'],
    ['+5', '5'],
    ['-$5', '-5'],
    ['USD 3', '3'],
    ['.5', '0.5'],
    ['0,299', '0.299'],
    ['00012.500', '12.5'],
    ['100.0000', '100'],
    ['1234,567', '1234.567'],
    ['123456789012345678901234567890.123456789', '123456789012345678901234567890.123456789'],
  ])('reads %j as %s', (text, expected) => {
    expect(parseDecimal(text)).toMatchObject({ ok: true, value: expected });
    expect(parseDecimal(text)).not.toHaveProperty('ambiguous');
  });

  describe('when a single separator is followed by exactly three digits', () => {
    it.each([
      ['1,299', 'comma', '1.299'],
      ['1,299', 'dot', '1299'],
      ['1.299', 'comma', '1299'],
      ['1.299', 'dot', '1.299'],
    ] as const)('reads %j with the %s style as %s', (text, style, expected) => {
      expect(parseDecimal(text, style)).toEqual({ ok: true, value: expected });
    });

    it.each(['1,299', '1.299', '999,000'])('flags %j as ambiguous with the auto style', (text) => {
      expect(parseDecimal(text, 'auto')).toMatchObject({ ok: true, ambiguous: true });
    });
  });

  it.each([
    '',
    ' ',
    'abc',
    '1e3',
    '3.65275E+11',
    '12.50.1',
    '1,2,3',
    '12..5',
    '--5',
    '5-',
    '1 29',
    'NaN',
    'Infinity',
  ])('refuses %j', (text) => {
    expect(parseDecimal(text).ok).toBe(false);
  });

  it('tells which separator a value showed, so a source can learn its style', () => {
    expect(parseDecimal('12,50')).toMatchObject({ separator: 'comma' });
    expect(parseDecimal('1,299.00')).toMatchObject({ separator: 'dot' });
    expect(parseDecimal('12')).not.toHaveProperty('separator');
  });
});

describe('no float arithmetic', () => {
  it('keeps 0.1 + 0.2 style values exact', () => {
    expect(toDecimal(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(parseDecimal('0.3')).toMatchObject({ value: '0.3' });
    expect(decimalEquals('0.3', 0.1 + 0.2)).toBe(false);
    expect(decimalEquals('0.3', 0.3)).toBe(true);
  });

  it('sends numbers that read back exactly, and knows when one would not', () => {
    expect(decimalToNumber(d('19.99'))).toBe(19.99);
    expect(isExactAsNumber(d('19.99'))).toBe(true);
    expect(isExactAsNumber(d('123456789012345'))).toBe(true);
    expect(isExactAsNumber(d('12345678901234567890'))).toBe(false);
    expect(isExactAsNumber(d('0.1234567890123456789'))).toBe(false);
  });
});

describe('decimalEquals', () => {
  it.each([
    [12.5, '12.50', true],
    ['12.50', '12.5', true],
    [12.5, 12.5, true],
    ['12.5', 12.51, false],
    [0, '-0', true],
    [1e21, '1000000000000000000000', true],
    [1e-7, '0.0000001', true],
    ['abc', 'abc', false],
    [null, null, false],
    [undefined, 0, false],
    ['1,299', 1299, false],
    [Number.NaN, Number.NaN, false],
  ])('%j equals %j: %s', (a, b, expected) => {
    expect(decimalEquals(a, b)).toBe(expected);
  });
});

describe('compareDecimals and toCents', () => {
  it.each([
    ['64.95', '95', -1],
    ['95', '64.95', 1],
    ['10', '9.99', 1],
    ['-1', '0.5', -1],
    ['-2', '-1.5', -1],
    ['1.50', '1.5', 0],
  ])('compares %s with %s as %i', (a, b, expected) => {
    expect(compareDecimals(d(a), d(b))).toBe(expected);
  });

  it('gives whole cents, or null past two decimals', () => {
    expect(toCents(d('12.5'))).toBe(1250n);
    expect(toCents(d('-0.05'))).toBe(-5n);
    expect(toCents(d('99999999999999999.99'))).toBe(9999999999999999999n);
    expect(toCents(d('0.001'))).toBeNull();
  });
});
