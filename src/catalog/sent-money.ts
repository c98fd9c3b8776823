import type { Decimal, ProductFields } from '../interfaces.js';
import { addPercent, decimalToNumber, parseDecimal, toDecimal } from './decimal.js';
import { tooLargeToSend } from './largest-sent.js';
import { roundedNote, roundedToZero } from './money.js';
import type { Draft, RawFields } from './presets/types.js';

/** What of a run's rules makes a row's prices what is sent (validate.ts RowRules has them). */
export interface MoneyRules {
  /** `--price-includes-tax`/`--tax-rate`: gross prices sent, `rate` where the row gives none. */
  gross?: { rate?: Decimal };
  /** `--price-decimals`: the decimals a price is sent rounded half up to. */
  priceDecimals?: number;
  /** `--fields`: a money field not sent is not checked. */
  send?: ReadonlySet<string>;
}

/** A money value the file gave with more decimals than are sent (validate.ts convertField). */
export interface Unrounded {
  /** The decimal as written, which the sent value is rounded from (and the gross computed from). */
  exact: Decimal;
  /** Rounding took away only float noise (`1.5699999999999998` → 1.57): the file's price, no note. */
  noise: boolean;
}

/**
 * A row's price and sale price as they are sent (validate.ts finishDraft): made gross where the run
 * says the file's are net, and refused where rounding (and tax) brought a positive value to 0; the
 * notes of the values sent otherwise than the file wrote them (`unrounded`: the values as the file
 * gave them, where rounded; `raws`: the cells, which notes and reasons quote as written).
 * `fields` is changed in place.
 */
export function moneyAsSent(
  fields: ProductFields,
  tax: Extract<Draft, { kind: 'product' }>['tax'],
  rules: MoneyRules,
  unrounded: Record<string, Unrounded> | undefined,
  raws: RawFields,
): { errors: string[]; notes: string[] } {
  const errors: string[] = [];
  // The money values as the source gave them, before rounding and tax: a positive one sent as 0 is refused.
  const given = moneyGiven(fields, unrounded);
  let taxed: Taxed | undefined;
  if (rules.gross) {
    taxed = withTax(fields, tax, rules.gross.rate, unrounded, rules.priceDecimals, raws);
    if (typeof taxed === 'string') errors.push(taxed);
    else if (taxed?.tooLarge) errors.push(...taxed.tooLarge);
  }
  errors.push(...zeroedMoney(fields, given, rules, taxed, raws));
  const rate = typeof taxed === 'object' ? taxed.rate : undefined;
  const notes =
    unrounded || rate !== undefined
      ? notesOfRounding(fields, given, unrounded, { places: rules.priceDecimals ?? 0, rate, raws })
      : [];
  return { errors, notes };
}

const TAXED = ['price', 'sale_price'] as const;

/**
 * What withTax did: the reason it could not, the rate it added (and the reasons of a gross too
 * large to send exactly, largest-sent.ts), or nothing (undefined).
 */
type Taxed = string | { rate: Decimal; tooLarge?: string[] } | undefined;

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
  unrounded: Record<string, Unrounded> | undefined,
  places: number | undefined,
  raws: RawFields,
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
  const tooLarge: string[] = [];
  for (const field of TAXED) {
    const value = fields[field];
    const net = unrounded?.[field]?.exact ?? (typeof value === 'number' ? toDecimal(value) : null);
    if (net === null) continue;
    const gross = addPercent(net, rate, places);
    // A net that fits may have a gross that does not: checked on the exact gross, before it is a double.
    const reason = tooLargeToSend(field, written(raws, field, net), gross, places ?? 2, { taxRate: rate });
    if (reason !== null) tooLarge.push(reason);
    fields[field] = decimalToNumber(gross);
  }
  return tooLarge.length > 0 ? { rate, tooLarge } : { rate };
}

/** The money fields of a row as the file gave them (before rounding and tax). */
function moneyGiven(
  fields: ProductFields,
  unrounded: Record<string, Unrounded> | undefined,
): Array<[field: string, given: Decimal]> {
  const given: Array<[string, Decimal]> = [];
  for (const field of TAXED) {
    const value = unrounded?.[field]?.exact ?? toDecimal(fields[field]);
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
  raws: RawFields,
): string[] {
  const rate = typeof taxed === 'object' ? taxed.rate : undefined;
  const reasons: string[] = [];
  for (const [field, value] of given) {
    if (rules.send && !rules.send.has(field)) continue;
    const sent = toDecimal(fields[field]);
    if (sent === null) continue;
    const reason = roundedToZero(field, value, sent, rules.priceDecimals ?? 2, {
      taxRate: rate,
      written: written(raws, field, value),
    });
    if (reason) reasons.push(reason);
  }
  return reasons;
}

/**
 * The row's notes for its money values sent otherwise than the file wrote them: rounded to fewer
 * decimals (float noise aside), or, with tax, a gross that rounds back to the net (`0.01` + 19% is
 * 0.0119, sent as 0.01: the price would read as if no tax were added). A gross that differs from
 * the net needs none: the summary says prices are sent gross, rounded.
 */
function notesOfRounding(
  fields: ProductFields,
  given: Array<[field: string, given: Decimal]>,
  unrounded: Record<string, Unrounded> | undefined,
  how: { places: number; rate: Decimal | undefined; raws: RawFields },
): string[] {
  const { places, rate, raws } = how;
  const notes: string[] = [];
  for (const [field, value] of given) {
    const sent = toDecimal(fields[field]);
    if (sent === null) continue;
    const own = unrounded?.[field];
    const rounded = own !== undefined && !own.noise;
    const taxLost = rate !== undefined && rate !== '0' && value !== '0' && sent === value;
    if (rounded || taxLost) notes.push(roundedNote(field, written(raws, field, value), sent, places, rate));
  }
  return notes;
}

/** The cell of a money field as the file wrote it (`125,966387`), for a note or a reason to quote. */
function written(raws: RawFields, field: string, value: Decimal): string {
  const raw = raws[field];
  return typeof raw === 'string' ? raw.trim() : value;
}
