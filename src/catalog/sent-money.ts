import type { Decimal, ProductFields } from '../interfaces.js';
import { addPercent, decimalToNumber, parseDecimal, toDecimal } from './decimal.js';
import { roundedNote, roundedToZero } from './money.js';
import type { Draft } from './presets/types.js';

/** What of a run's rules makes a row's prices what is sent (validate.ts RowRules has them). */
export interface MoneyRules {
  /** `--price-includes-tax`/`--tax-rate`: gross prices sent, `rate` where the row gives none. */
  gross?: { rate?: Decimal };
  /** `--price-decimals`: the decimals a price is sent rounded half up to. */
  priceDecimals?: number;
  /** `--fields`: a money field not sent is not checked. */
  send?: ReadonlySet<string>;
}

/**
 * A row's price and sale price as they are sent (validate.ts finishDraft): made gross where the run
 * says the file's are net, and refused where rounding (and tax) brought a positive value to 0; the
 * notes of the values sent with fewer decimals than the file gave (`unrounded`: the values as the
 * file gave them, where rounded). `fields` is changed in place.
 */
export function moneyAsSent(
  fields: ProductFields,
  tax: Extract<Draft, { kind: 'product' }>['tax'],
  rules: MoneyRules,
  unrounded: Record<string, Decimal> | undefined,
): { errors: string[]; notes: string[] } {
  const errors: string[] = [];
  // The money values as the source gave them, before rounding and tax: a positive one sent as 0 is refused.
  const given = moneyGiven(fields, unrounded);
  let taxed: Taxed | undefined;
  if (rules.gross) {
    taxed = withTax(fields, tax, rules.gross.rate, unrounded, rules.priceDecimals);
    if (typeof taxed === 'string') errors.push(taxed);
  }
  errors.push(...zeroedMoney(fields, given, rules, taxed));
  const notes = unrounded ? notesOfRounding(fields, unrounded, rules.priceDecimals ?? 0, taxed) : [];
  return { errors, notes };
}

const TAXED = ['price', 'sale_price'] as const;

/** What withTax did: the reason it could not, the rate it added, or nothing (undefined). */
type Taxed = string | { rate: Decimal } | undefined;

/**
 * `--price-includes-tax` (README, Options of `run` and `import`): the row's prices made gross, unless
 * the file says they are.
 * The row's own rate wins over `--tax-rate`: a file's rates may differ by product (a reduced rate).
 * The gross is computed from the net the file gave (`unrounded` where the sent value was rounded),
 * then rounded to `places` decimals (cents unless told).
 */
function withTax(
  fields: ProductFields,
  tax: Extract<Draft, { kind: 'product' }>['tax'],
  fallback: Decimal | undefined,
  unrounded: Record<string, Decimal> | undefined,
  places: number | undefined,
): Taxed {
  if (tax?.basis === 'gross') return undefined;
  if (!TAXED.some((field) => typeof fields[field] === 'number')) return undefined;
  const own =
    tax?.basis === 'net' && tax.rate !== undefined
      ? parseDecimal(tax.rate.replace('%', ''), 'auto')
      : undefined;
  if (own && !own.ok) return `invalid tax rate "${tax?.basis === 'net' ? tax.rate : ''}"`;
  const rate = own?.ok ? own.value : fallback;
  if (rate === undefined) return 'the price is net of tax and the row gives no tax rate: give --tax-rate P%';
  for (const field of TAXED) {
    const value = fields[field];
    const net = unrounded?.[field] ?? (typeof value === 'number' ? toDecimal(value) : null);
    if (net !== null) fields[field] = decimalToNumber(addPercent(net, rate, places));
  }
  return { rate };
}

/** The money fields of a row as the file gave them (before rounding and tax). */
function moneyGiven(
  fields: ProductFields,
  unrounded: Record<string, Decimal> | undefined,
): Array<[field: string, given: Decimal]> {
  const given: Array<[string, Decimal]> = [];
  for (const field of TAXED) {
    const value = unrounded?.[field] ?? toDecimal(fields[field]);
    if (value !== null && value !== undefined) given.push([field, value]);
  }
  return given;
}

/** A sent money value that rounding (and tax) brought from above 0 to 0: the row is invalid. */
function zeroedMoney(
  fields: ProductFields,
  given: Array<[field: string, given: Decimal]>,
  rules: MoneyRules,
  taxed: Taxed,
): string[] {
  const rate = typeof taxed === 'object' ? taxed.rate : undefined;
  const reasons: string[] = [];
  for (const [field, value] of given) {
    if (rules.send && !rules.send.has(field)) continue;
    const sent = toDecimal(fields[field]);
    const reason = sent === null ? null : roundedToZero(field, value, sent, rules.priceDecimals ?? 2, rate);
    if (reason) reasons.push(reason);
  }
  return reasons;
}

/** The row's notes for its money values sent with fewer decimals than the file gave them. */
function notesOfRounding(
  fields: ProductFields,
  unrounded: Record<string, Decimal>,
  places: number,
  taxed: Taxed,
): string[] {
  const rate = typeof taxed === 'object' ? taxed.rate : undefined;
  const notes: string[] = [];
  for (const field in unrounded) {
    const sent = toDecimal(fields[field]);
    if (sent !== null) notes.push(roundedNote(field, unrounded[field]!, sent, places, rate));
  }
  return notes;
}
