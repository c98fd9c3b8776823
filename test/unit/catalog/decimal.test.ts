import { describe, expect, it } from 'vitest';
import {
  addPercent,
  compareDecimals,
  decimalEquals,
  decimalToNumber,
  isExactAsNumber,
  parseDecimal,
  toCents,
  toDecimal,
  withoutFloatNoise,
} from '../../../src/catalog/decimal.js';
import type { Decimal } from '../../../src/interfaces.js';

const d = (text: string) => text as Decimal;

describe('parseDecimal, plain values (digits, or digits, a dot and one or two decimals)', () => {
  /** Every string of up to `length` characters over `alphabet`. */
  function* strings(alphabet: string, length: number): Generator<string> {
    yield '';
    if (length === 0) return;
    for (const shorter of strings(alphabet, length - 1)) for (const c of alphabet) yield shorter + c;
  }

  it('reads each as the pattern /^(\\d+)(?:\\.(\\d{1,2}))?$/ does, one way whatever the style', () => {
    let plain = 0;
    for (const text of new Set(strings('019.', 6))) {
      const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
      if (!match) continue;
      plain++;
      const whole = (match[1] ?? '').replace(/^0+/, '') || '0';
      const decimals = (match[2] ?? '').replace(/0+$/, '');
      const value = decimals === '' ? whole : `${whole}.${decimals}`;
      const expected = match[2] === undefined ? { ok: true, value } : { ok: true, value, separator: 'dot' };
      for (const style of ['auto', 'dot', 'comma'] as const)
        expect(parseDecimal(text, style), text).toEqual(expected);
    }
    expect(plain).toBeGreaterThan(500);
  });

  it.each([
    ['1.234', { ok: true, value: '1234' }],
    ['1..2', { ok: false, reason: 'not a number' }],
    ['\u0661\u0662', { ok: false, reason: 'not a number' }],
    ['+12', { ok: true, value: '12' }],
  ])('leaves %j, which is not plain, to the reading of the style (comma)', (text, expected) => {
    expect(parseDecimal(text, 'comma')).toEqual(expected);
  });
});

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

    it.each(['1,299', '1.299'])(
      'reads %j with the either style as 1.299, and says a whole number would be a guess',
      (text) => {
        expect(parseDecimal(text, 'either')).toEqual({ ok: true, value: '1.299', groupable: true });
      },
    );

    it.each([
      ['1.234.567', '1234567'],
      ['1.299,90', '1299.9'],
      ['1,299.90', '1299.9'],
    ] as const)(
      'reads %j with the either style as %s: more than one separator still groups',
      (text, expected) => {
        expect(parseDecimal(text, 'either')).toMatchObject({ ok: true, value: expected });
      },
    );

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

describe('withoutFloatNoise: the decimal a source number stands for', () => {
  it.each([
    // Float noise, as spreadsheets export it and JSON writers print it: the shortest decimal.
    ['1.5699999999999998', '1.57'],
    ['0.30000000000000004', '0.3'],
    ['0.7000000000000001', '0.7'],
    ['19.990000000000002', '19.99'],
    ['1.0000000000000002', '1'],
    ['9.9999999999999999', '10'],
    ['99.99999999999999', '100'],
    ['-1.5699999999999998', '-1.57'],
    ['-0.30000000000000004', '-0.3'],
    ['0.000012340000000000001', '0.00001234'],
    // Exact decimals of up to 15 significant digits: unchanged, whatever their zeros.
    ['19.99', '19.99'],
    ['12.5', '12.5'],
    ['1.234567', '1.234567'],
    ['0.1', '0.1'],
    ['0.000001', '0.000001'],
    ['0', '0'],
    ['-5', '-5'],
    ['1000000', '1000000'],
    ['123456789012345', '123456789012345'],
    ['0.123456789012345', '0.123456789012345'],
    ['1234567890.12345', '1234567890.12345'],
    // Past 15 significant digits and not noise: the 15-digit reading (halves away from zero).
    ['1234567.8901234567', '1234567.89012346'],
    // More than 17 significant digits, which no double's shortest form has: the text's own, as written.
    ['0.1234567890123456789', '0.1234567890123456789'],
    ['12345678901234567890', '12345678901234567890'],
    ['12345678901234567890.12', '12345678901234567890.12'],
    // 17 with the zeros a double prints for 12345678901234567890.
    ['12345678901234567000', '12345678901234600000'],
    ['99999999999999999', '100000000000000000'],
    ['1.0000000000000005', '1'],
    ['1.00000000000000050', '1'],
    ['1.000000000000005', '1.00000000000001'],
    ['-1234567.8901234567', '-1234567.89012346'],
  ])('%s reads as %s', (text, expected) => {
    expect(withoutFloatNoise(d(text))).toBe(expected);
  });

  it('gives what Number(x.toPrecision(15)) gives, for numbers a JSON source holds', () => {
    const numbers = [0.1 + 0.2, 1.1 * 1.1, 0.57 * 100, 19.99 * 3, 1 / 3, 2 / 3, 1e-7 * 3, 123.456 - 0.001];
    for (const n of numbers) {
      const read = withoutFloatNoise(toDecimal(n) as Decimal);
      expect(read).toBe(toDecimal(Number(n.toPrecision(15))));
    }
    expect(withoutFloatNoise(toDecimal(0.1 + 0.2) as Decimal)).toBe('0.3');
    expect(withoutFloatNoise(toDecimal(0.57 * 100) as Decimal)).toBe('57');
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

describe('addPercent (a net price made gross)', () => {
  it.each([
    ['100', '20', '120'],
    ['495.79831932773', '19', '590'],
    ['4.67', '7', '5'],
    ['16.81', '19', '20'],
    ['0.99', '7.7', '1.07'],
    ['10', '0', '10'],
    ['0.005', '0', '0.01'],
    ['19.99', '5.5', '21.09'],
  ])('%s plus %s%% is %s, half up to cents', (value, percent, expected) => {
    expect(addPercent(d(value), d(percent))).toBe(expected);
  });
});

describe('parseDecimal: the plain form (digits, a dot, one or two decimals) read at once', () => {
  // A leading space keeps a value off the quick reading: both readings must agree, in every style.
  const values = [
    '0',
    '7',
    '12',
    '0012',
    '12.5',
    '12.50',
    '12.05',
    '0.00',
    '000.10',
    '1299.99',
    '123456789012.34',
  ];
  it.each(values)('%s reads as the general reading reads it', (text) => {
    for (const style of ['auto', 'dot', 'comma'] as const) {
      expect(parseDecimal(text, style)).toEqual(parseDecimal(` ${text}`, style));
    }
  });

  it('leaves every other form to the general reading', () => {
    expect(parseDecimal('1.299', 'auto')).toEqual({ ok: true, value: '1.299', ambiguous: true });
    expect(parseDecimal('1.299', 'comma')).toEqual({ ok: true, value: '1299' });
    expect(parseDecimal('12.', 'auto')).toEqual(parseDecimal(' 12.', 'auto'));
    expect(parseDecimal('-12.50').ok && parseDecimal('-12.50')).toEqual({
      ok: true,
      value: '-12.5',
      separator: 'dot',
    });
  });
});
