import type { Decimal } from '../interfaces.js';

// The plain form of a decimal, read at once: the fast path of parseDecimal (decimal.ts).

export const NOT_PLAIN = -2;
export const NO_DOT = -1;

/**
 * Where the dot of a plain value is, NO_DOT, or NOT_PLAIN. Plain: digits, or digits, a dot and one
 * or two decimals (`12`, `12.5`, `0012.50`), as /^(\d+)(?:\.(\d{1,2}))?$/ reads them: how nearly
 * every price and quantity is written, and read one way only whatever the style (two decimals are
 * never a thousands group). Read at once, by a scan rather than that regex: its match arrays, the
 * substrings and canonicalise's replaces were a tenth of what a 300,000-row import allocated (issue 12).
 */
export function plainDot(text: string): number {
  const length = text.length;
  let i = 0;
  while (i < length && isDigit(text.charCodeAt(i))) i++;
  if (i === 0) return NOT_PLAIN;
  if (i === length) return NO_DOT;
  const decimals = length - i - 1;
  if (text.charCodeAt(i) !== 0x2e || decimals < 1 || decimals > 2) return NOT_PLAIN;
  for (let k = i + 1; k < length; k++) if (!isDigit(text.charCodeAt(k))) return NOT_PLAIN;
  return i;
}

const isDigit = (code: number) => code >= 0x30 && code <= 0x39;

/** canonicalise of a plain value (plainDot): the text itself when it is canonical already. */
export function plainCanonical(text: string, dot: number): Decimal {
  const wholeEnd = dot === NO_DOT ? text.length : dot;
  let wholeStart = 0;
  while (wholeStart < wholeEnd - 1 && text.charCodeAt(wholeStart) === 0x30) wholeStart++;
  let end = text.length;
  if (dot !== NO_DOT) {
    while (end > dot + 1 && text.charCodeAt(end - 1) === 0x30) end--;
    if (end === dot + 1) end = dot;
  }
  return (wholeStart === 0 && end === text.length ? text : text.slice(wholeStart, end)) as Decimal;
}
