import { type DecimalStyle, type ParsedDecimal, parseDecimal } from './decimal.js';

/**
 * Reads the decimals of one source, resolving `1,299`-style values that read two ways. A style the
 * user or preset fixed is used as is. Otherwise the source teaches it: the first value that shows
 * its separator unambiguously (`12,50`, `1,299.00`) decides the later ambiguous ones; before that,
 * a `;`-delimited file suggests comma decimals. Anything still ambiguous comes back `ambiguous`, and
 * validation makes that row invalid: a price off by a factor of 1000 is worse than a row not sent.
 */
export function createDecimalReader(
  style: DecimalStyle,
  suggested?: 'dot' | 'comma',
): (text: string, forced?: 'dot' | 'comma') => ParsedDecimal {
  let learned: 'dot' | 'comma' | undefined;
  return (text, forced) => {
    if (forced) return parseDecimal(text, forced);
    if (style !== 'auto') return parseDecimal(text, style);
    const parsed = parseDecimal(text, 'auto');
    if (!parsed.ok) return parsed;
    if (!parsed.ambiguous) {
      learned ??= parsed.separator;
      return parsed;
    }
    const resolved = learned ?? suggested;
    return resolved ? parseDecimal(text, resolved) : parsed;
  };
}
