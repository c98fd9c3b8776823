/**
 * Exact decimal numbers as canonical strings (see `Decimal` in src/interfaces.ts): no floats ever
 * touch a price until `decimalToNumber` builds the JSON body. Prices compare as decimals
 * (`"12.50"` equals `12.5`: docs/architecture.md, decision 3).
 */
import type { Decimal } from '../interfaces.js';
import { CURRENCY_PREFIX, CURRENCY_SUFFIX } from './currency-marks.js';
import { NO_DOT, NOT_PLAIN, plainCanonical, plainDot } from './plain-decimal.js';

/**
 * Which character separates the decimals when a value alone cannot tell (`1,299`). `either`: a lone
 * `.` or `,` is the decimal point, never a thousands separator (PrestaShop's import reads a comma as
 * a point: `1,250` kg is 1.25); `auto`: the source teaches it (decimal-reader.ts).
 */
export type DecimalStyle = 'dot' | 'comma' | 'either' | 'auto';

export type ParsedDecimal =
  | {
      ok: true;
      value: Decimal;
      /** Set when the text reads two ways (`1,299`, `1.299`) and the style was `auto`. */
      ambiguous?: boolean;
      /** The decimal separator the text itself showed, when it showed one unambiguously. */
      separator?: 'dot' | 'comma';
      /**
       * The `either` style read a lone separator before three digits (`1,000`) as the decimal point:
       * right for a price or a weight, a guess for a whole number (validate.ts refuses it there).
       */
      groupable?: boolean;
    }
  | { ok: false; reason: string };

/** Spaces (plain, no-break, narrow no-break) and apostrophes only ever group thousands. */
const GROUPED_BY_SPACE = /^\d{1,3}(?:[ '’]\d{3})+(?:[.,]\d*)?$/;
const ONLY_NUMBER_CHARS = /^[\d.,]*\d[\d.,]*$|^[\d.,]*[.,]\d+$/;

export function parseDecimal(text: string, style: DecimalStyle = 'auto'): ParsedDecimal {
  const dot = plainDot(text);
  if (dot !== NOT_PLAIN) {
    const value = plainCanonical(text, dot);
    return dot === NO_DOT ? { ok: true, value } : { ok: true, value, separator: 'dot' };
  }
  const unsigned = splitSign(text.replace(/[\u00a0\u202f]/g, ' ').trim());
  if (unsigned === null) return { ok: false, reason: 'not a number' };
  const { negative } = unsigned;
  let { rest } = unsigned;
  if (rest === '') return { ok: false, reason: 'empty' };
  if (GROUPED_BY_SPACE.test(rest)) rest = rest.replace(/[ '’]/g, '');
  if (!ONLY_NUMBER_CHARS.test(rest)) return { ok: false, reason: 'not a number' };
  const read = readSeparators(rest, style);
  if (!read.ok) return read;
  const result: ParsedDecimal = { ok: true, value: canonicalise(negative, read.intPart, read.fracPart) };
  if (read.ambiguous) result.ambiguous = true;
  if (read.separator) result.separator = read.separator;
  if (read.groupable) result.groupable = true;
  return result;
}

/** Strips an optional sign and an optional currency (either side, in either order with the sign). */
function splitSign(text: string): { negative: boolean; rest: string } | null {
  let rest = text;
  let sign = '';
  const takeSign = () => {
    const first = rest[0];
    if (first === '+' || first === '-') {
      if (sign !== '') return false;
      sign = first;
      rest = rest.slice(1).trimStart();
    }
    return true;
  };
  if (!takeSign()) return null;
  rest = rest.replace(CURRENCY_PREFIX, '');
  if (!takeSign()) return null;
  rest = rest.replace(CURRENCY_SUFFIX, '').trimEnd();
  return { negative: sign === '-', rest };
}

type Separated =
  | {
      ok: true;
      intPart: string;
      fracPart: string;
      ambiguous?: boolean;
      separator?: 'dot' | 'comma';
      groupable?: boolean;
    }
  | { ok: false; reason: string };

function readSeparators(text: string, style: DecimalStyle): Separated {
  const dots = count(text, '.');
  const commas = count(text, ',');
  if (dots === 0 && commas === 0) return { ok: true, intPart: text, fracPart: '' };
  if (dots > 0 && commas > 0) {
    const decimalChar = text.lastIndexOf('.') > text.lastIndexOf(',') ? '.' : ',';
    const groupChar = decimalChar === '.' ? ',' : '.';
    if (count(text, decimalChar) > 1) return { ok: false, reason: 'not a number' };
    const [whole = '', frac = ''] = text.split(decimalChar);
    if (!isGrouped(whole, groupChar)) return { ok: false, reason: 'misplaced thousands separator' };
    return {
      ok: true,
      intPart: whole.split(groupChar).join(''),
      fracPart: frac,
      separator: nameOf(decimalChar),
    };
  }
  const char = dots > 0 ? '.' : ',';
  if (count(text, char) > 1) {
    if (!isGrouped(text, char)) return { ok: false, reason: 'not a number' };
    return { ok: true, intPart: text.split(char).join(''), fracPart: '' };
  }
  const [whole = '', frac = ''] = text.split(char);
  const couldBeThousands = frac.length === 3 && /^[1-9]\d{0,2}$/.test(whole);
  if (!couldBeThousands) return { ok: true, intPart: whole, fracPart: frac, separator: nameOf(char) };
  const asDecimal = { ok: true as const, intPart: whole, fracPart: frac };
  const asThousands = { ok: true as const, intPart: whole + frac, fracPart: '' };
  if (style === 'auto') return { ...(char === '.' ? asDecimal : asThousands), ambiguous: true };
  if (style === 'either') return { ...asDecimal, groupable: true };
  return nameOf(char) === style ? asDecimal : asThousands;
}

function isGrouped(whole: string, groupChar: string): boolean {
  const groups = whole.split(groupChar);
  if (groups.length === 1) return /^\d*$/.test(whole);
  return /^\d{1,3}$/.test(groups[0] ?? '') && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

function nameOf(char: string): 'dot' | 'comma' {
  return char === '.' ? 'dot' : 'comma';
}

function count(text: string, char: string): number {
  let n = 0;
  for (const c of text) if (c === char) n++;
  return n;
}

/** Sign, whole and decimal digits as a canonical decimal: no leading or trailing zeros, no `-0`. */
export function canonicalise(negative: boolean, intPart: string, fracPart: string): Decimal {
  const whole = intPart.replace(/^0+/, '') || '0';
  const frac = fracPart.replace(/0+$/, '');
  const body = frac === '' ? whole : `${whole}.${frac}`;
  return (negative && body !== '0' ? `-${body}` : body) as Decimal;
}

/** A JSON number (or numeric string in plain dot notation) as a canonical decimal; null otherwise. */
export function toDecimal(value: unknown): Decimal | null {
  if (typeof value === 'number') return Number.isFinite(value) ? fromNumber(value) : null;
  if (typeof value !== 'string') return null;
  if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/.test(value)) return null;
  const parsed = parseDecimal(value, 'dot');
  return parsed.ok ? parsed.value : null;
}

function fromNumber(n: number): Decimal {
  const text = String(n);
  const exp = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exp) return canonicalise(n < 0, text.replace('-', '').split('.')[0] ?? '0', text.split('.')[1] ?? '');
  const [, sign = '', whole = '', frac = '', power = '0'] = exp;
  const digits = whole + frac;
  const point = whole.length + Number(power);
  if (point <= 0) return canonicalise(sign === '-', '0', '0'.repeat(-point) + digits);
  if (point >= digits.length)
    return canonicalise(sign === '-', digits + '0'.repeat(point - digits.length), '');
  return canonicalise(sign === '-', digits.slice(0, point), digits.slice(point));
}

/** The significant digits a double is sure to carry: any decimal of up to 15 of them round-trips. */
export const DOUBLE_DIGITS = 15;

/** The most significant digits the shortest form of a double has (what String() and JSON write). */
const SHORTEST_DOUBLE_DIGITS = 17;

/**
 * The decimal a source number stands for, without the float noise a spreadsheet or a JSON writer
 * leaves in it (`1.5699999999999998` → `1.57`, `0.30000000000000004` → `0.3`): rounded to 15
 * significant digits, then written shortest. This is, on the text and without a float, what
 * `Number(Number(x).toPrecision(15))` gives, but for an exact half in the 16th digit: the text's
 * half goes away from zero, where toPrecision would follow the double's binary value. A decimal
 * of up to 15 significant digits comes back unchanged: `19.99`, `1.234567`, `0.000001` stay exact.
 *
 * A value of 16 or 17 significant digits that is not noise (`1234567.8901234567`) is read as its
 * 15-digit rounding too, on purpose: there the text cannot tell a real digit from a double's
 * noise, and the value goes out as a JSON number, which no API reads back with more digits than
 * that. Taking the 15-digit reading makes what is sent, what is compared and what the API keeps
 * the same number, where refusing the row or keeping 17 digits would make it fail or never
 * compare equal. A value of more than 17 (`12345678901234567890.12`) is no double's shortest
 * form, so no writer's noise: it comes back as written, and validate.ts refuses it as too long to
 * send exactly, as it refuses such a quantity (a 15-digit reading would change it in silence).
 * A price rounded to the currency's decimals is rounded from the text as written (validate.ts).
 */
export function withoutFloatNoise(d: Decimal): Decimal {
  // No more digits than characters: a short decimal needs no look (nearly every price).
  if (d.length <= DOUBLE_DIGITS) return d;
  const negative = d.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
  const digits = (whole + frac).replace(/^0+/, '');
  if (digits.length <= DOUBLE_DIGITS) return d;
  // Trailing zeros of the whole part are a double's too (String(12345678901234567890) ends in 000).
  if (digits.replace(/0+$/, '').length > SHORTEST_DOUBLE_DIGITS) return d;
  const dropped = 10n ** BigInt(digits.length - DOUBLE_DIGITS);
  const rounded = ((BigInt(whole + frac) + dropped / 2n) / dropped) * dropped;
  const text = rounded.toString().padStart(frac.length + 1, '0');
  const point = text.length - frac.length;
  return canonicalise(negative, text.slice(0, point), text.slice(point));
}

/** True when both are numbers (JSON numbers or plain numeric strings) of the same value. */
export function decimalEquals(a: unknown, b: unknown): boolean {
  const x = toDecimal(a);
  const y = toDecimal(b);
  return x !== null && x === y;
}

/** -1, 0 or 1, exactly. */
export function compareDecimals(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const negA = a.startsWith('-');
  const negB = b.startsWith('-');
  if (negA !== negB) return negA ? -1 : 1;
  const magnitude = compareMagnitudes(negA ? a.slice(1) : a, negB ? b.slice(1) : b);
  return (negA ? -magnitude : magnitude) as -1 | 0 | 1;
}

function compareMagnitudes(a: string, b: string): -1 | 0 | 1 {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = ai + af.padEnd(width, '0');
  const y = bi + bf.padEnd(width, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}

/** True when the JSON number for `d` reads back as exactly `d` (about 15 significant digits). */
export function isExactAsNumber(d: Decimal): boolean {
  // Any decimal of up to 15 digits round-trips through a double; longer ones are checked.
  const digits = d.length - (d.startsWith('-') ? 1 : 0) - (d.includes('.') ? 1 : 0);
  return digits <= 15 || fromNumber(Number(d)) === d;
}

/** The JSON number for the request body; exact (round-trips) up to 15 significant digits. */
export function decimalToNumber(d: Decimal): number {
  return Number(d);
}

/** Whole cents as a bigint, or null when the value has more than two decimals. */
export function toCents(d: Decimal): bigint | null {
  const negative = d.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
  if (frac.length > 2) return null;
  const cents = BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
  return negative ? -cents : cents;
}

/**
 * `value` plus `percent`% of it, rounded half up to `places` decimals (cents unless told): a net
 * price made gross (`495.79831932773` at 19% is `590`). Exact, on the digits: no float, and the
 * net is taken as given, never rounded first.
 */
export function addPercent(value: Decimal, percent: Decimal, places = 2): Decimal {
  const [a, aScale] = scaled(value);
  const [p, pScale] = scaled(percent);
  // value × (100 + percent) / 100, at scale aScale + pScale + 2; then to `places` decimals, half up.
  const hundred = 100n * 10n ** BigInt(pScale);
  const product = a * (hundred + p);
  const scale = aScale + pScale + 2;
  const negative = product < 0n;
  const magnitude = negative ? -product : product;
  const rounded =
    scale <= places
      ? magnitude * 10n ** BigInt(places - scale)
      : (magnitude + 10n ** BigInt(scale - places) / 2n) / 10n ** BigInt(scale - places);
  const text = rounded.toString().padStart(places + 1, '0');
  const point = text.length - places;
  return canonicalise(negative, text.slice(0, point), text.slice(point));
}

/** A canonical decimal as an integer and its number of decimals (`12.5` → [125n, 1]). */
function scaled(d: Decimal): [bigint, number] {
  const negative = d.startsWith('-');
  const [whole = '0', frac = ''] = (negative ? d.slice(1) : d).split('.');
  const n = BigInt(whole + frac);
  return [negative ? -n : n, frac.length];
}
