import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNumbersAsText } from '../../../src/sources/number-text.js';
import { openAndRead, stdinOf } from './helpers.js';

const read = (text: string) => openAndRead('-', { stdin: stdinOf(text, 7) });

/** Each number as the text it is written back as: JSON.stringify's for JSON.parse, String's here. */
function numbersAsStrings(value: unknown, write = JSON.stringify): unknown {
  if (typeof value === 'number') return write(value);
  if (Array.isArray(value)) return value.map((inner) => numbersAsStrings(inner, write));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, numbersAsStrings(inner, write)]),
    );
  }
  return value;
}

/**
 * `read` is `parsed` with each number as a value that String writes as a text reading as that
 * number (`"5e-0324"` for 5e-324; a short whole number may stay a number).
 */
function sameButNumbers(parsed: unknown, read: unknown): void {
  if (typeof parsed === 'number') {
    expect(['string', 'number']).toContain(typeof read);
    expect(Object.is(Number(String(read)), parsed)).toBe(true);
  } else if (typeof parsed === 'object' && parsed !== null) {
    expect(typeof read === 'object' && read !== null && Array.isArray(read) === Array.isArray(parsed)).toBe(
      true,
    );
    const inner = read as Record<string, unknown>;
    expect(Object.keys(inner)).toEqual(Object.keys(parsed));
    for (const [key, value] of Object.entries(parsed)) sameButNumbers(value, inner[key]);
  } else {
    expect(read).toEqual(parsed);
  }
}

/** The error JSON.parse throws for the text, or undefined when it parses. */
function parseError(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('NDJSON numbers', () => {
  it('keep their source text, as in a JSON array: 1.50, 17 digits, an exponent, -0', async () => {
    const items = [
      '{"sku":1.50,"name":"b","price":"3.10"}',
      '{"sku":90071992547409931,"price":1.25e1,"quantity":-0,"weight":1E+2}',
    ];
    const ndjson = await read(items.join('\n'));
    const json = await read(`[${items.join(',\n')}]`);
    expect(ndjson.opened.format).toBe('ndjson');
    expect(json.opened.format).toBe('json');
    const values = ndjson.records.map((record) => ({ ...record.values }));
    expect(values).toEqual([
      { sku: '1.50', name: 'b', price: '3.10' },
      { sku: '90071992547409931', price: '1.25e1', quantity: '-0', weight: '1E+2' },
    ]);
    expect(values).toEqual(json.records.map((record) => ({ ...record.values })));
  });

  it('leave strings alone: digits, quotes and backslashes inside them, and keys', async () => {
    const line = String.raw`{"a\"1":"x\"1.50","b":"\\","c\\":2.0,"d":["1.0",[3.00,{"e":-1.5e-3}]],"f":true,"g":null}`;
    const { records } = await read(`{"sku":"A"}\n${line}`);
    expect({ ...records[1]?.values }).toEqual({
      'a"1': 'x"1.50',
      b: '\\',
      'c\\': '2.0',
      d: '1.0|3.00',
      'd.e': '-1.5e-3',
      f: 'true',
    });
  });

  it.each([
    '{"sku":1.50,"name": x}',
    '{"sku":01}',
    '{"sku":1.}',
    '{"sku":-}',
    '{"sku":1.5.0}',
    '{"sku":1e}',
    '{1.5:"a"}',
    '{"a":1 :2}',
    '{"a":1, 2:3}',
    '{"a":"1.50}',
    '{"a":1.50,}',
  ])('a bad line %s says what JSON.parse says of the line as written', async (line) => {
    const { records } = await read(`{"sku":"A"}\n${line}`);
    const message = parseError(line);
    expect(message).toBeDefined();
    expect(records[1]).toEqual({
      row: 2,
      line: 2,
      values: {},
      problem: `line 2 is not valid JSON (${message})`,
    });
  });

  it('parse any valid JSON to what JSON.parse gives, numbers written back as their text', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(numbersAsStrings(parseNumbersAsText(text), String)).toEqual(
          numbersAsStrings(JSON.parse(text)),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('keep their text in a line of thousands of them (quoted a batch at a time)', () => {
    const numbers = Array.from({ length: 5000 }, (_, i) => `${i}.${i % 7}0`);
    const line = `{"a":[${numbers.join(',')}],"b":"x","c":[${numbers.slice(0, 3).join(', ')}]}`;
    expect(parseNumbersAsText(line)).toEqual({ a: numbers, b: 'x', c: numbers.slice(0, 3) });
  });

  it('each come back as written, quoted or not: String gives the text of the source', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const token = fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.oneof(fc.constant('0'), fc.tuple(fc.constantFrom(...'123456789'), digits(0, 20))),
        fc.option(fc.tuple(fc.constantFrom('', '0', '00000', '000000', '0000000'), digits(1, 20))),
        fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3))),
      )
      .map(([sign, whole, fraction, exponent]) =>
        [
          sign,
          typeof whole === 'string' ? whole : whole.join(''),
          fraction ? `.${fraction.join('')}` : '',
          exponent ? exponent.join('') : '',
        ].join(''),
      );
    fc.assert(
      fc.property(token, (text) => {
        expect(String((parseNumbersAsText(`[${text}]`) as unknown[])[0])).toBe(text);
      }),
      { numRuns: 5000 },
    );
    for (const text of [
      '0.000001',
      '0.0000001',
      '-0',
      '-0.5',
      '123456789012345',
      '1234567890123456',
      '1.5',
    ]) {
      expect(String((parseNumbersAsText(`[${text}]`) as unknown[])[0])).toBe(text);
    }
  });

  it('refuse exactly the text JSON.parse refuses, with its message', () => {
    // Valid JSON with one character dropped or one put in: mostly invalid.
    const edited = fc
      .tuple(
        fc.json({ maxDepth: 3 }),
        fc.nat(),
        fc.constantFrom('', ':', ',', '"', '-', '.', 'e', '0', '1', '}'),
      )
      .map(([text, at, insert]) => {
        const i = at % (text.length + 1);
        return text.slice(0, i) + insert + text.slice(i + (insert === '' ? 1 : 0));
      });
    fc.assert(
      fc.property(edited, (text) => {
        const expected = parseError(text);
        if (expected === undefined) {
          sameButNumbers(JSON.parse(text), parseNumbersAsText(text));
        } else {
          expect(() => parseNumbersAsText(text)).toThrow(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
