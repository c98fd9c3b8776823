import { describe, expect, it } from 'vitest';
import { createDecimalReader } from '../../../src/catalog/decimal-reader.js';
import { kindOf, parseBoolean, splitList } from '../../../src/catalog/fields.js';
import type { FieldSpec } from '../../../src/catalog/transforms.js';
import { convertField, type RowRules } from '../../../src/catalog/validate.js';

const rules = (specs: Record<string, FieldSpec> = {}): RowRules => ({
  matchBy: 'sku',
  specOf: (field) => specs[field] ?? { kind: kindOf(field) },
  readDecimal: createDecimalReader().read,
});

describe('the field table', () => {
  it.each([
    ['sku', 'string'],
    ['name', 'string'],
    ['price', 'decimal'],
    ['sale_price', 'decimal'],
    ['weight', 'decimal'],
    ['quantity', 'integer'],
    ['images', 'list'],
    ['tags', 'list'],
    ['active', 'boolean'],
    ['barcode', 'string'],
    ['colour_of_the_box', 'string'],
  ])('%s is a %s', (field, kind) => {
    expect(kindOf(field)).toBe(kind);
  });
});

describe('convertField', () => {
  it.each([
    ['price', '12,50', 12.5],
    ['price', '$1,299.99', 1299.99],
    ['quantity', '100.0000', 100],
    ['active', 'TRUE', true],
    ['active', 'no', false],
    ['images', 'a.jpg, b.jpg,,', ['a.jpg', 'b.jpg']],
    ['name', 'Münsterländer', 'Münsterländer'],
  ])('%s %j becomes %j', (field, raw, expected) => {
    expect(convertField(field, raw, rules())).toEqual({ ok: true, value: expected });
  });

  it.each([
    // Float noise, as a spreadsheet exports it or a JSON number prints: the decimal it stands for.
    ['price', '1.5699999999999998', 1.57],
    ['price', '0.30000000000000004', 0.3],
    ['price', '1,5699999999999998', 1.57],
    ['price', '€ 19.990000000000002', 19.99],
    ['sale_price', '0.7000000000000001', 0.7],
    ['weight', '1.0000000000000002', 1],
    ['price', '0.000000000000000004', 0.000000000000000004],
    // Exact decimals stay what they are.
    ['price', '12.50', 12.5],
    ['price', '19.99', 19.99],
    ['price', '1.234567', 1.234567],
    ['price', '0', 0],
    ['price', '-0', 0],
    ['price', '123456789012.345', 123456789012.345],
    // Up to 17 significant digits (a double's shortest form) and not noise: the 15-digit reading.
    ['price', '1234567.8901234567', 1234567.89012346],
  ])('%s %j is read as the price it stands for: %j', (field, raw, expected) => {
    expect(convertField(field, raw, rules())).toEqual({ ok: true, value: expected });
  });

  it.each([
    ['price', 'abc', 'invalid price "abc"'],
    ['price', '-5', 'invalid price "-5": negative'],
    ['quantity', '2.5', 'invalid quantity "2.5": not a whole number'],
    ['active', 'maybe', 'invalid active "maybe"'],
    ['price', '1,299', 'ambiguous price "1,299"'],
    ['price', '-0.30000000000000004', 'invalid price "-0.30000000000000004": negative'],
    ['sale_price', '-1.5699999999999998', 'invalid sale_price "-1.5699999999999998": negative'],
    ['quantity', '12345678901234567890', 'has too many digits to send exactly'],
    // More digits than any double's shortest form: the seller's own, refused as a quantity's are.
    ['price', '12345678901234567890', 'price "12345678901234567890" has too many digits to send exactly'],
    ['weight', '1.2345678901234567891', 'has too many digits to send exactly'],
  ])('%s %j is refused: %s', (field, raw, reason) => {
    const result = convertField(field, raw, rules());
    expect(result.ok).toBe(false);
    expect(result).toHaveProperty('reason', expect.stringContaining(reason));
  });

  describe('with --price-decimals (money is rounded to it)', () => {
    const money = (): RowRules => ({ ...rules(), priceDecimals: 2 });

    it('rounds half up from the decimal as written, never from its 15-digit reading', () => {
      // Its 15-digit reading is 12345.675, which would round up to 12345.68.
      expect(convertField('price', '12345.67499999999', money())).toMatchObject({
        ok: true,
        value: 12345.67,
      });
      expect(convertField('sale_price', '2.6749999999999998', money())).toMatchObject({
        ok: true,
        value: 2.67,
      });
      // Noise that rounds to what it stands for is the decimal it stands for.
      expect(convertField('price', '1.5699999999999998', money())).toMatchObject({ ok: true, value: 1.57 });
    });

    it.each([['12345678901234567890.12'], ['12345678901234567890'], ['9007199254740993']])(
      'refuses %s, too long to send exactly, as a quantity is refused',
      (raw) => {
        expect(convertField('price', raw, money())).toEqual({
          ok: false,
          reason: `price "${raw}" has too many digits to send exactly as a JSON number`,
        });
      },
    );

    it('sends a long price a double holds exactly as it is', () => {
      expect(convertField('price', '12345678901234.56', money())).toEqual({
        ok: true,
        value: 12345678901234.56,
      });
    });

    // A double holds every whole number of cents up to 2^53 - 1; past it, a JSON number is a
    // value the seller did not write, however its text reads (1e20 is a double, 10^22 cents is not
    // a count a double keeps exact), and the API states no bound of its own that would refuse it.
    it('refuses a price that rounding makes too large to send exactly, quoting the cell and what it rounds to', () => {
      expect(convertField('price', '99999999999999999999.995', money())).toEqual({
        ok: false,
        reason:
          'price "99999999999999999999.995" is too large to send exactly (rounded to 2 decimals it is 100000000000000000000.00; at most 90071992547409.91)',
      });
      expect(convertField('sale_price', '$99999999999999999999.995', money())).toEqual({
        ok: false,
        reason:
          'sale_price "$99999999999999999999.995" is too large to send exactly (rounded to 2 decimals it is 100000000000000000000.00; at most 90071992547409.91)',
      });
    });

    it.each([['100000000000000000000'], ['90071992547409.92'], ['90071992547410']])(
      'refuses %s: more cents than a double counts exactly',
      (raw) => {
        expect(convertField('price', raw, money())).toEqual({
          ok: false,
          reason: `price "${raw}" is too large to send exactly (at most 90071992547409.91)`,
        });
      },
    );

    it.each([
      ['999999999.99', 2, 999999999.99],
      ['12345678901.5', 2, 12345678901.5],
      ['90071992547409.9', 2, 90071992547409.9],
      ['9007199254740991', 0, 9007199254740991],
      ['999999999.999999', 6, 999999999.999999],
    ])('sends %s at %i decimals: its minor units fit', (raw, priceDecimals, value) => {
      expect(convertField('price', raw, { ...rules(), priceDecimals })).toEqual({ ok: true, value });
    });

    it.each([
      ['9007199254740992', 0, 'at most 9007199254740991'],
      ['9007199254.740992', 6, 'at most 9007199254.740991'],
      ['12345678901.5', 6, 'at most 9007199254.740991'],
      ['9007199254740991.5', 0, 'rounded to 0 decimals it is 9007199254740992; at most 9007199254740991'],
    ])('refuses %s at %i decimals (%s)', (raw, priceDecimals, why) => {
      expect(convertField('price', raw, { ...rules(), priceDecimals })).toEqual({
        ok: false,
        reason: `price "${raw}" is too large to send exactly (${why})`,
      });
    });
  });

  describe('a quantity past 2^53 - 1 (a double skips whole numbers there)', () => {
    it.each([['9007199254740992'], ['9007199254740994'], ['10000000000000000000']])('refuses %s', (raw) => {
      expect(convertField('quantity', raw, rules())).toEqual({
        ok: false,
        reason: `quantity "${raw}" is too large to send exactly (at most 9007199254740991)`,
      });
    });

    it('sends 9007199254740991, the largest a double counts exactly', () => {
      expect(convertField('quantity', '9007199254740991', rules())).toEqual({
        ok: true,
        value: 9007199254740991,
      });
    });
  });

  // A weight has no minor unit: it counts in its own decimals (12.5 is 125 tenths), held to the
  // bound a price or a quantity is held to, as a double counts whole numbers exactly only up to it.
  describe('a weight past 2^53 - 1 of its own last decimal', () => {
    const dotted = rules({ weight: { kind: 'decimal', decimal: 'dot' } });

    it.each([['100000000000000000000'], ['10000000000000000'], ['9010000000000000']])('refuses %s', (raw) => {
      expect(convertField('weight', raw, dotted)).toEqual({
        ok: false,
        reason: `weight "${raw}" is too large to send exactly (at most 9007199254740991)`,
      });
    });

    it.each([
      ['999999999999999', 999999999999999],
      ['90071992547.4099', 90071992547.4099],
      ['453.592', 453.592],
    ])('sends %s: it fits', (raw, value) => {
      expect(convertField('weight', raw, dotted)).toEqual({ ok: true, value });
    });
  });

  it('drops a barcode a spreadsheet mangled, with a note', () => {
    expect(convertField('barcode', '3.65275E+11', rules())).toMatchObject({ ok: 'drop' });
    // As a spreadsheet in a comma-decimal locale saves it.
    expect(convertField('barcode', '3,65275E+11', rules())).toMatchObject({ ok: 'drop' });
    expect(convertField('barcode', '0036527500123', rules())).toEqual({ ok: true, value: '0036527500123' });
  });

  it('follows a decimal separator forced on the field', () => {
    expect(convertField('price', '1.299', rules({ price: { kind: 'decimal', decimal: 'comma' } }))).toEqual({
      ok: true,
      value: 1299,
    });
  });
});

describe('parseBoolean and splitList', () => {
  it.each([
    ['1', true],
    ['yes', true],
    ['FALSE', false],
    ['0', false],
    ['2', null],
  ])('%j → %j', (text, expected) => {
    expect(parseBoolean(text)).toBe(expected);
  });

  it('splits on a chosen separator', () => {
    expect(splitList('a | b|c', '|')).toEqual(['a', 'b', 'c']);
  });
});
