import { refuseBareFraction } from '../bare-fraction.js';
import { MAX_PRICE_DECIMALS, MAX_RECORD_BYTES, MIN_RECORD_BYTES } from '../defaults.js';
import { parseDuration, unitlessLine } from '../duration.js';
import { parseDailyReset } from '../seller-api/index.js';
import { parseByteSize } from '../sources/limits.js';
import { CREDENTIALS_NAME } from '../sources/stores/credentials.js';
import {
  checkApiVersion,
  quotedApiVersion,
  SHOPIFY_API_VERSION,
} from '../sources/stores/shopify/bulk-query.js';
import { UsageError } from './usage-error.js';

/**
 * The values of command-line options (and their job-file twins): each parser returns the value or
 * throws a one-line UsageError naming the option and what it takes.
 */

export function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new UsageError(`--concurrency takes a whole number from 1 to 256, not "${value}"`);
  }
  return n;
}

export function parseDailyBudget(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`--daily-budget takes a whole number above 0, not "${value}"`);
  return n;
}

export function checkDailyReset(value: string): string {
  try {
    parseDailyReset(value);
    return value.trim();
  } catch {
    throw new UsageError(`--daily-reset takes a UTC time as HH:MM, not "${value}"`);
  }
}

export function parseFieldList(value: string, option = '--fields'): string[] {
  const fields = value
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  if (fields.length === 0) throw new UsageError(`${option} takes a comma-separated list of product fields`);
  return fields;
}

/**
 * `--tax-rate P%`: a percentage from 0 to 100, `20%`, `20` or `7.7%` (`7,7%` too), as a decimal
 * string. Below 1 without its `%` it is refused (bare-fraction.ts): `0.2` may be 0.2% or 20%.
 */
export function parseTaxRate(value: string): string {
  const match = /^\s*(\d{1,3}(?:[.,]\d+)?|[.,]\d+)\s*%?\s*$/.exec(String(value));
  const rate = match ? Number(match[1]?.replace(',', '.')) : Number.NaN;
  if (!match || !(rate >= 0 && rate <= 100))
    throw new UsageError(`--tax-rate takes a percentage such as 20% or 7.7%, not "${value}"`);
  refuseBareFraction('--tax-rate', String(value), rate);
  const text = (match[1] ?? '').replace(',', '.');
  return text.startsWith('.') ? `0${text}` : text;
}

/** `--price-decimals N`: the decimals of the currency's minor unit, a whole number from 0 to 6. */
export function parsePriceDecimals(value: string): number {
  const text = String(value).trim();
  const n = Number(text);
  if (!/^\d{1,2}$/.test(text) || n > MAX_PRICE_DECIMALS)
    throw new UsageError(
      `--price-decimals takes a whole number from 0 to ${MAX_PRICE_DECIMALS} (the decimals of the currency's smallest unit, e.g. 2 for cents), not "${value}"`,
    );
  return n;
}

/** `--full-read-after`: how old the last full read of the seller's products may be for `--incremental`. */
export function parseFullReadAfter(value: string): number {
  const unitless = unitlessLine('--full-read-after', value, 'd');
  if (unitless) throw new UsageError(unitless);
  const ms = parseDuration(value);
  if (ms === null)
    throw new UsageError(`--full-read-after takes a duration such as 7d, 12h or 30m, not "${value}"`);
  return ms;
}

/** `--source-timeout`: the stall window of a source URL. */
export function parseSourceTimeout(value: string): number {
  const unitless = unitlessLine('--source-timeout', value, 's');
  if (unitless) throw new UsageError(unitless);
  const ms = parseDuration(value);
  if (ms === null || ms < 100)
    throw new UsageError(
      `--source-timeout takes a duration of at least 100ms, such as 30s or 2m, not "${value}"`,
    );
  return ms;
}

/** `--max-record-bytes`: `8MiB`, `512KiB` or a number of bytes, between 1 KiB and 1 GiB. */
export function parseMaxRecordBytes(value: string): number {
  const bytes = parseByteSize(value);
  if (bytes === null || bytes < MIN_RECORD_BYTES || bytes > MAX_RECORD_BYTES)
    throw new UsageError(
      `--max-record-bytes takes a size from 1KiB to 1GiB, such as 8MiB, 512KiB or 1048576, not "${value}"`,
    );
  return bytes;
}

/** `--source-credentials NAME`: the tail of the store's credential variables (SHOPIFY_ACCESS_TOKEN_<NAME>). */
export function parseSourceCredentials(value: string): string {
  // The value is not echoed: a token pasted here by mistake must not reach the terminal's history.
  if (!CREDENTIALS_NAME.test(value))
    throw new UsageError(
      '--source-credentials takes a NAME of capitals, digits and _, at most 32 (read from SHOPIFY_ACCESS_TOKEN_<NAME>, or WOO_CONSUMER_KEY_<NAME> and WOO_CONSUMER_SECRET_<NAME>), never a token or key',
    );
  return value;
}

/** The Admin API version of a `shopify://` source when `--source-api-version` does not say. */
export { SHOPIFY_API_VERSION };

/** `--source-api-version`: a Shopify Admin API version (`2026-10`, `unstable`). */
export function parseShopifyApiVersion(value: string): string {
  if (!checkApiVersion(value))
    throw new UsageError(
      `--source-api-version takes a Shopify API version such as ${SHOPIFY_API_VERSION} (YYYY-01, -04, -07 or -10), ${quotedApiVersion(value)}`,
    );
  return value;
}

/** `--delimiter`: `,` `;` tab or `|` (or their names): a source's CSV delimiter. */
export function parseDelimiter(value: string): string {
  const named: Record<string, string> = { tab: '\t', '\\t': '\t', comma: ',', semicolon: ';', pipe: '|' };
  const delimiter = named[value.toLowerCase()] ?? value;
  if (![',', ';', '\t', '|'].includes(delimiter)) {
    throw new UsageError(`--delimiter takes , ; tab or |, not "${value}"`);
  }
  return delimiter;
}
