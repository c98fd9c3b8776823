import type {
  Decimal,
  InvalidRow,
  MappedRow,
  MergedRow,
  ProductFields,
  ProductUpsert,
  SkippedRow,
} from '../interfaces.js';
import { decimalToNumber, isExactAsNumber, type ParsedDecimal, withoutFloatNoise } from './decimal.js';
import { isSpreadsheetMangled, NON_NEGATIVE_FIELDS, parseBoolean, splitList } from './fields.js';
import { isInvisibleKey } from './invisible-text.js';
import { tooLargeToSend } from './largest-sent.js';
import { decimalsOf, MONEY_FIELDS, roundHalfUp } from './money.js';
import type { Draft, RawFields } from './presets/types.js';
import { currencyOfPrices, notedAlready } from './price-currency.js';
import { moneyAsSent, type Unrounded } from './sent-money.js';
import { excelKeyOf, keyOfRow, type SourceKeys, untrustedKey } from './source-keys.js';
import type { FieldSpec } from './transforms.js';
import { currencyUnsentOf } from './unsent-currency.js';
import { leftOutUnsold, notSoldWithoutStatus, stateOfOwnStatus } from './unsold.js';

export interface RowRules {
  /** The `--match-by` field. */
  matchBy: string;
  specOf(field: string): FieldSpec;
  readDecimal(text: string, forced?: 'dot' | 'comma'): ParsedDecimal;
  /**
   * `--fields`: exactly the fields sent, the match field too only when listed (the row keeps its
   * key for matching either way); undefined sends every field.
   */
  send?: ReadonlySet<string>;
  /** `--only-published`: rows the source does not sell are skipped rather than sent with a status. */
  onlyPublished?: boolean;
  /** `--missing`: a row skipped because the source does not sell it counts as gone (unsold.ts). */
  missing?: boolean;
  /** `--include-external`: products sold on another site (affiliate links) are sent, not skipped. */
  includeExternal?: boolean;
  /**
   * `--price-includes-tax`/`--tax-rate`: send gross prices. A row's net price gets its own tax rate
   * where the file gives one, else `rate` (`--tax-rate`); a gross price is sent as it is.
   */
  gross?: { rate?: Decimal };
  /**
   * `--price-decimals`: a price or sale price with more decimals is sent rounded half up to this
   * many; undefined sends it as the file has it.
   */
  priceDecimals?: number;
}

type Converted =
  /** `unrounded`: the money value as the file gave it, when `value` is it rounded (priceDecimals). */
  | { ok: true; value: ProductFields[string]; note?: string; unrounded?: Unrounded }
  | { ok: false; reason: string }
  | { ok: 'drop'; note: string };

/** One raw field to its value by kind. Pure apart from the decimal reader's learning. */
export function convertField(field: string, raw: string | string[], rules: RowRules): Converted {
  const spec = rules.specOf(field);
  if (spec.kind === 'list')
    return { ok: true, value: Array.isArray(raw) ? raw : splitList(raw, spec.separator) };
  const text = Array.isArray(raw) ? raw.join(', ') : raw;
  switch (spec.kind) {
    case 'string':
      // The match field's own is the row's key: refused as an untrusted key (source-keys.ts), not left out.
      if (field === 'barcode' && field !== rules.matchBy && isSpreadsheetMangled(text)) {
        return {
          ok: 'drop',
          note: `barcode "${text}" was mangled by a spreadsheet (scientific notation): not sent`,
        };
      }
      return { ok: true, value: text };
    case 'boolean': {
      const value = parseBoolean(text);
      return value === null ? { ok: false, reason: `invalid ${field} "${text}"` } : { ok: true, value };
    }
    case 'decimal':
    case 'integer': {
      const parsed = rules.readDecimal(text, spec.decimal);
      if (!parsed.ok) return { ok: false, reason: `invalid ${field} "${text}"` };
      // `1,000` in a PrestaShop quantity: PrestaShop itself reads 1, a person means 1000.
      if (spec.kind === 'integer' && parsed.groupable) {
        return {
          ok: false,
          reason: `ambiguous ${field} "${text}" (a decimal point or a thousands separator?): write it without the separator`,
        };
      }
      if (parsed.ambiguous) {
        return {
          ok: false,
          reason: `ambiguous ${field} "${text}" (a decimal or thousands separator?): set decimal: comma or dot in a mapping file`,
        };
      }
      // Money is rounded to its decimals (below) from the decimal as written: `12345.67499999999` is
      // 12345.67, where its 15-digit reading (12345.675) would round up. Any other decimal is what it
      // stands for, without float noise: `1.5699999999999998` is sent and compared as 1.57 (see
      // withoutFloatNoise). A whole number keeps its digits. A value too long to send exactly is
      // refused below.
      const places = MONEY_FIELDS.has(field) ? rules.priceDecimals : undefined;
      const value =
        spec.kind === 'decimal' && places === undefined ? withoutFloatNoise(parsed.value) : parsed.value;
      if (spec.kind === 'integer' && value.includes('.')) {
        return { ok: false, reason: `invalid ${field} "${text}": not a whole number` };
      }
      if (NON_NEGATIVE_FIELDS.has(field) && value.startsWith('-')) {
        return { ok: false, reason: `invalid ${field} "${text}": negative` };
      }
      // Stock below zero is what every platform keeps for orders taken beyond it (backorders,
      // overselling): none is available. The API takes 0 or more.
      if (field === 'quantity' && value.startsWith('-')) {
        return { ok: true, value: 0, note: `quantity ${text} (sold beyond stock): sent as 0` };
      }
      // Money has no more decimals than its minor unit: what is sent (and so compared) is rounded.
      const rounded =
        places !== undefined && decimalsOf(value) > places ? roundHalfUp(value, places) : undefined;
      const sent = rounded ?? value;
      if (!isExactAsNumber(sent)) {
        return {
          ok: false,
          reason: `${field} "${text}" has too many digits to send exactly as a JSON number`,
        };
      }
      // Nor past 2^53 - 1 of its unit (largest-sent.ts): money's minor unit, a count's one, a
      // weight's own last decimal (it has no minor unit, and is not rounded).
      const tooLarge = tooLargeToSend(field, text, sent, places ?? 0, rounded ? { rounded: true } : {});
      if (tooLarge !== null) return { ok: false, reason: tooLarge };
      if (rounded === undefined) return { ok: true, value: decimalToNumber(value) };
      // Float noise rounded away is the price the file stands for (1.5699999999999998 → 1.57): no note.
      const noise = rounded === withoutFloatNoise(value);
      return { ok: true, value: decimalToNumber(rounded), unrounded: { exact: value, noise } };
    }
  }
}

/** A preset's draft to the row the rest of the pipeline sees: converted, validated, filtered. */
export function finishDraft(draft: Draft, rules: RowRules, seen: SourceKeys): MappedRow {
  const { record } = draft;
  // With `--missing`, a row under another row's key leaves that row to say whether it is held.
  if (draft.kind === 'merged') {
    const merged: MergedRow = {
      kind: 'merged',
      row: record.row,
      line: record.line,
      key: draft.key,
      intoRow: draft.intoRow,
      reason: draft.reason,
    };
    if (rules.missing && draft.sharesKey) merged.sharesKey = true;
    return merged;
  }
  if (draft.kind === 'invalid') return invalid(record.row, record.line, draft.reason, draft.key);
  if (draft.kind === 'skipped') {
    const row = skipped(record.row, record.line, draft.reason, draft.key);
    if (rules.missing && draft.sharesKey) row.sharesKey = true;
    return row;
  }

  const fields: ProductFields = {};
  const notes = draft.notes;
  const errors: string[] = draft.refused === undefined ? [] : [draft.refused];
  const raws: RawFields = draft.fields;
  // The currency a price cell writes (`12.50 EUR`), whatever preset or mapping file read it: sent,
  // checked against the row's own, never dropped in silence (price-currency.ts).
  const priced = currencyOfPrices(raws);
  if (priced.currency !== undefined) raws.currency = priced.currency;
  if (priced.refused !== undefined) errors.push(priced.refused);
  if (priced.note !== undefined && !notedAlready(notes, priced.note)) notes.push(priced.note);
  // The money values the file gave with more decimals than are sent (rare: made only for such a row).
  let unrounded: Record<string, Unrounded> | undefined;
  for (const field in raws) {
    const converted = convertField(field, raws[field]!, rules);
    if (converted.ok === true) {
      fields[field] = converted.value;
      if (converted.note) notes.push(converted.note);
      if (converted.unrounded !== undefined) {
        unrounded ??= {};
        unrounded[field] = converted.unrounded;
      }
    } else if (converted.ok === 'drop') notes.push(converted.note);
    else errors.push(converted.reason);
  }
  // A key cell that shows nothing (a lone zero-width space) is no key, as a blank one: not sent.
  const own = fields[rules.matchBy];
  if (typeof own === 'string' && isInvisibleKey(own)) delete fields[rules.matchBy];
  const rowKey = keyOfRow(draft, fields, rules.matchBy);
  const { key } = rowKey;
  const excelKey = excelKeyOf(record, rowKey);
  // Left out before its key is claimed or its errors count: a draft is not sent, so neither matters.
  // With `--missing`, its former key and its key as Excel text go where its key goes (what the
  // source holds, or not).
  if (draft.external !== undefined && !rules.includeExternal)
    return withFormer(
      skipped(record.row, record.line, `${draft.external} (--include-external sends it)`, key || undefined),
      rules.missing && rowKey.former,
      rules.missing && excelKey,
    );
  if (draft.external !== undefined) notes.push(`${draft.external}: sent as asked (--include-external)`);
  // A preset's published state, else the row's own `status` field (a generic file's column).
  const state = draft.state ?? stateOfOwnStatus(raws.status);
  const leftOut = state && leftOutUnsold(state, rules);
  if (leftOut) {
    const row = withFormer(
      skipped(record.row, record.line, leftOut.reason, key || undefined),
      rules.missing && rowKey.former,
      rules.missing && excelKey,
    );
    if (leftOut.unsold) row.unsold = true;
    return row;
  }
  // Not sold, and `--fields` does not send status: the diff creates no product of it (row-sync).
  const notSold = state && notSoldWithoutStatus(state, rules);
  if (draft.state && fields.status === undefined) {
    fields.status = draft.state.status;
    if (draft.state.status !== 'active' && notSold === undefined)
      notes.push(`sent with status ${draft.state.status}: ${draft.state.says}`);
  }
  const money = moneyAsSent(fields, draft.tax, rules, unrounded, raws);
  errors.push(...money.errors);
  notes.push(...money.notes);
  const former = seen.claim(record.row, rowKey, rules.matchBy, errors, notes);
  if (errors.length > 0)
    return withFormer(
      invalid(record.row, record.line, errors.join('; '), key || undefined),
      rules.missing && former,
      rules.missing && excelKey,
    );

  const upsert: ProductUpsert = {
    kind: 'upsert',
    row: record.row,
    line: record.line,
    key,
    fields: pick(fields, rules),
  };
  if (draft.id !== undefined) upsert.id = draft.id;
  const unsent = currencyUnsentOf(fields, raws, rules.send);
  if (unsent !== undefined) {
    upsert.currencyUnsent = unsent;
    notes.push(`${unsent.cell}: its currency ${unsent.currency} not sent (--fields leaves currency out)`);
  }
  if (former !== undefined) upsert.formerKey = former;
  if (excelKey !== undefined) upsert.excelKey = excelKey;
  if (rowKey.derived) upsert.derivedKey = true;
  if (draft.unpriced !== undefined) upsert.unpriced = draft.unpriced;
  if (notSold !== undefined) upsert.notSold = notSold;
  if (draft.unnamed !== undefined && fields.name === undefined) upsert.unnamed = draft.unnamed;
  // A sale ended in the source ends on the marketplace only where the run sends sale prices.
  if (draft.noSale && upsert.fields.sale_price === undefined && rules.send?.has('sale_price') !== false)
    upsert.noSale = true;
  if (notes.length > 0) upsert.notes = notes;
  return upsert;
}

/**
 * `--fields` lists exactly what is sent (README, Options of `run` and `import`). An API that takes only
 * the fields it knows
 * answers 400 to any other, the match field included; a row whose match field is not sent is
 * found by later runs through the ids this tool recorded, as when an API hides `sku`.
 */
function pick(fields: ProductFields, rules: RowRules): ProductFields {
  const { send } = rules;
  if (!send) return fields;
  const picked: ProductFields = {};
  for (const [field, value] of Object.entries(fields)) {
    if (send.has(field)) picked[field] = value;
  }
  return picked;
}

function skipped(row: number, line: number, reason: string, key?: string): SkippedRow {
  const result: SkippedRow = { kind: 'skipped', row, line, reason };
  if (key !== undefined && key !== '') result.key = key;
  return result;
}

function invalid(row: number, line: number, reason: string, key?: string): InvalidRow {
  const result: InvalidRow = { kind: 'invalid', row, line, reason };
  if (key !== undefined && key !== '') result.key = key;
  // Whatever else the row is refused for: its product is not the one its key names.
  if (result.key !== undefined && untrustedKey(result.key)) result.keyUntrusted = true;
  return result;
}

/**
 * A row not sent keeps its former key and its key as Excel text for `--missing` alone (what the
 * source holds, producer.ts).
 */
function withFormer<Row extends InvalidRow | SkippedRow>(
  row: Row,
  former: string | false | undefined,
  excelKey: string | false | undefined,
): Row {
  if (former) row.formerKey = former;
  if (excelKey) row.excelKey = excelKey;
  return row;
}
