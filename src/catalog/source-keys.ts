import type { ProductFields, SourceRecord } from '../interfaces.js';
import { trimCell } from './cell-text.js';
import { isSpreadsheetMangled, mangledKeyReason } from './fields.js';
import { invisibleKeyReason } from './invisible-text.js';
import { comparableKey } from './key-forms.js';
import type { KeyDerivation } from './presets/key-derivation.js';
import type { Draft } from './presets/types.js';
import { SeenKeys } from './seen-keys.js';

/** How a row came by its match key (validate.ts). */
export interface RowKey {
  key: string;
  /** The key is one the preset derived (the row has no SKU), not the row's own field. */
  derived: boolean;
  /** What the preset made a derived key of, where it says. */
  derivedFrom?: KeyDerivation;
  /**
   * For a row keyed by its SKU: the product's lasting platform key (Draft's `platformKey`), the key
   * it had before it had a SKU. Checked here before the row may carry it (ProductUpsert.formerKey).
   */
  former?: string;
}

/**
 * The row's match key: its own field, else (matching by `sku`) the key the preset derived. A key
 * the preset derived (no SKU in the file) matches the row, kept in the id map, but is not the
 * seller's SKU: it stays out of `fields`, so the marketplace never gets it as `sku`. A row keyed by
 * its SKU may have had the preset's lasting platform key before (its former key, source-keys.ts).
 */
export function keyOfRow(
  draft: Extract<Draft, { kind: 'product' }>,
  fields: ProductFields,
  matchBy: string,
): RowKey {
  const value = fields[matchBy];
  const own = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  if (matchBy !== 'sku') return { key: own, derived: false };
  if (own === '') {
    if (draft.derivedKey === undefined) return { key: '', derived: false };
    const derived: RowKey = { key: draft.derivedKey, derived: true };
    if (draft.derivedFrom) derived.derivedFrom = draft.derivedFrom;
    return derived;
  }
  const former = draft.platformKey;
  return former === undefined || comparableKey(former) === comparableKey(own)
    ? { key: own, derived: false }
    : { key: own, derived: false, former };
}

/**
 * The row's key as an earlier version read it (ProductUpsert.excelKey): the cell of Excel text the
 * key was read from, as written (`="00123"`), where the record had one. That version sent it so:
 * the product it made has it as its SKU. Costs nothing for a record without such a cell.
 */
export function excelKeyOf(record: SourceRecord, rowKey: RowKey): string | undefined {
  if (record.excelText === undefined || rowKey.derived || rowKey.key === '') return undefined;
  return record.excelText.find(({ text }) => trimCell(text) === rowKey.key)?.cell;
}

/**
 * A key that makes its row invalid by what it is, not by another row's: not the key the seller
 * wrote (a spreadsheet turned `123456789` into `1.23457E+08`) or sees (an invisible character at
 * its edge, `\u200bSKU-1`: invisible-text.ts), so which product the row stands for is not known.
 * With `--missing` such a row counts as one with no key (runs/keyless-rows.ts).
 */
export function untrustedKey(key: string): boolean {
  return untrustedKeyReason('key', key) !== undefined;
}

/** Why the row's key is untrusted (untrustedKey), or undefined. */
function untrustedKeyReason(matchBy: string, key: string): string | undefined {
  if (isSpreadsheetMangled(key)) return mangledKeyReason(matchBy, key);
  return invisibleKeyReason(matchBy, key);
}

/**
 * The keys one source has given so far: the duplicate-key check, and the former keys its rows carry
 * (docs/sources.md, "A SKU given later"). A platform key names one product of the platform (an ID,
 * a handle with its option values), so within one source it is one row's, whether that row is keyed
 * by it (no SKU) or carries it as its former key: the second row naming it would write the product
 * the first one writes. The former keys are kept apart (only rows with both keys cost anything), so
 * that a row keyed by one is told from a row carrying it.
 */
export class SourceKeys {
  private readonly keys = new SeenKeys();
  /** Made at the first former key: a source without them holds no table for them. */
  private formers: SeenKeys | null = null;

  /**
   * Claims the row's key (its errors and notes go into the row's lists); resolves to the former key
   * the row may carry, if any. Two rows with the same former key and each its own SKU (two stores'
   * exports in one file?) are not refused: the second carries none, and says so.
   */
  claim(row: number, rowKey: RowKey, matchBy: string, errors: string[], notes: string[]): string | undefined {
    const { key, former } = rowKey;
    if (key === '') {
      errors.unshift(`missing ${matchBy}`);
      return undefined;
    }
    const untrusted = untrustedKeyReason(matchBy, key);
    if (untrusted !== undefined) {
      errors.unshift(untrusted);
      return undefined;
    }
    const first = this.keys.firstRow(comparableKey(key), row);
    if (first !== undefined) {
      errors.push(
        rowKey.derived
          ? derivedTwice(rowKey, first)
          : `duplicate ${matchBy} "${key}": first seen in row ${first}`,
      );
      return undefined;
    }
    if (rowKey.derived) {
      const carrier = this.formers?.rowOf(comparableKey(key));
      if (carrier !== undefined)
        errors.push(
          `${madeKey(rowKey)} is row ${carrier}'s former key: that row is the same product, with a SKU (keep one of the rows)`,
        );
      return undefined;
    }
    if (former === undefined) return undefined;
    const form = comparableKey(former);
    const keyed = this.keys.rowOf(form);
    if (keyed !== undefined) {
      errors.push(`its former key ${former} is row ${keyed}'s key: two rows may not write one product`);
      return undefined;
    }
    this.formers ??= new SeenKeys();
    const carried = this.formers.firstRow(form, row);
    if (carried === undefined) return former;
    notes.push(`former key ${former} is row ${carried}'s too: not used to find the product`);
    return undefined;
  }
}

/**
 * A derived key an earlier row has too. The file gives no SKU: the message says the key was made,
 * of what, and how the rows can be told apart (a title's slug leaves case and punctuation out).
 */
function derivedTwice(rowKey: RowKey, first: number): string {
  const { derivedFrom } = rowKey;
  const twice = `${madeKey(rowKey)} is row ${first}'s too`;
  return derivedFrom ? `${twice} (${derivedFrom.why}): ${derivedFrom.fix}` : twice;
}

/** `its key etsy:mug, made from the title "Mug",`: a key the preset derived, as a message names it. */
function madeKey({ key, derivedFrom }: RowKey): string {
  return `its key ${key}, made ${derivedFrom ? `from ${derivedFrom.from}` : 'by the preset (the row has no SKU)'},`;
}
