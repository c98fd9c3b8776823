import { saleWindowState } from '../../sale-window.js';
import type { Draft, PresetRun } from './types.js';

/**
 * A scheduled sale in an export: its sale price is sent only while the sale runs, at the run's
 * start (sale-window.ts, the rule a store read through its API follows). The price of a sale that
 * has not begun or has ended is left out, with a note, and the row ends a sale the marketplace
 * still shows (Draft's `noSale`, sync/sale-end.ts); a date the platform would not write makes
 * the row invalid rather than guessed at. Dates without an offset are read as UTC (an export does
 * not say the store's time zone), a date without a time as the whole day, as the platforms do:
 * a sale ending 2030-12-31 runs through that day.
 */

/** An instant of a sale's window, with the day it falls on as the file writes it (for notes). */
export interface SaleDate {
  at: number;
  day: string;
}

export type SaleDates =
  | { from: SaleDate | null; to: SaleDate | null }
  /** The reason the row is invalid: a date that cannot be read. */
  | { unreadable: string };

/**
 * The draft, its sale price left out when its sale does not run at the run's start, or an invalid
 * row when its dates cannot be read. `label` names the sale price as the platform does (`special_price`);
 * the dates are read only for a row that has a sale price.
 */
export function timedSale(
  draft: Draft & { kind: 'product' },
  label: string,
  dates: () => SaleDates,
  run: PresetRun,
): Draft {
  const price = draft.fields.sale_price;
  if (price === undefined || run.salePriceUnsent) return draft;
  const read = dates();
  if ('unreadable' in read) {
    const key = draft.derivedKey ?? (typeof draft.fields.sku === 'string' ? draft.fields.sku : undefined);
    return { kind: 'invalid', record: draft.record, ...(key ? { key } : {}), reason: read.unreadable };
  }
  const { from, to } = read;
  const state = saleWindowState(from?.at ?? null, to?.at ?? null, run.now);
  if (state === 'running') return draft;
  delete draft.fields.sale_price;
  // The store sells at the regular price now: a sale price the marketplace still shows is ended.
  draft.noSale = true;
  const runs = from && to ? ` (it runs ${from.day} to ${to.day})` : '';
  draft.notes.push(
    state === 'ended'
      ? `${label} ${price} not sent: its sale ended ${to?.day}${from ? ` (it ran from ${from.day})` : ''}`
      : `${label} ${price} not sent: its sale has not started${runs || ` (it starts ${from?.day})`}`,
  );
  return draft;
}

/** Two cells, one date each (WooCommerce, Magento); a blank cell is no bound. */
export function twoDates(
  from: { column: string; text: string },
  to: { column: string; text: string },
  read: (text: string, end: boolean) => SaleDate | null,
  writes: string,
): SaleDates {
  const bounds: Array<SaleDate | null> = [];
  for (const [cell, end] of [
    [from, false],
    [to, true],
  ] as const) {
    if (cell.text === '') {
      bounds.push(null);
      continue;
    }
    const date = read(cell.text, end);
    if (date === null) return { unreadable: `${cell.column} "${cell.text}" is not a date as ${writes}` };
    bounds.push(date);
  }
  return { from: bounds[0] ?? null, to: bounds[1] ?? null };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];
const YMD = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * WooCommerce's exporter writes `2030-12-24` (older versions with a time); its importer, which
 * reads the same file, also takes a Unix timestamp (`1689239400`), `2023/07/13` and `Jul 8, 2023`.
 * A form whose day and month could swap (`07/08/2023`) is not read.
 */
export function wooSaleDate(text: string, end: boolean): SaleDate | null {
  if (/^\d{1,11}$/.test(text)) {
    const at = Number(text) * 1000;
    return { at, day: new Date(at).toISOString().slice(0, 10) };
  }
  const ymd = YMD.exec(text);
  if (ymd) return dateOf(ymd[1], ymd[2], ymd[3], time(ymd[4], ymd[5], ymd[6]), 0, end);
  const named = /^([A-Za-z]{3,9})\.? (\d{1,2}),? (\d{4})$/.exec(text);
  const month = named ? monthOf(named[1] as string) : 0;
  if (named && month > 0) return dateOf(named[3], String(month), named[2], null, 0, end);
  return null;
}

export const WOO_WRITES = 'WooCommerce writes it (2030-12-24, 2030-12-24 10:00:00)';

/**
 * Magento's export writes dates in the admin's locale, `1/1/30` (month/day/year) for en_US,
 * sometimes with a time (`10/25/17, 8:21 AM`); its import also reads `2030-01-01 00:00:00`.
 * A two-digit year is 2000-2069, else 1970-1999.
 */
export function magentoSaleDate(text: string, end: boolean): SaleDate | null {
  const ymd = YMD.exec(text);
  if (ymd && !text.includes('/')) return dateOf(ymd[1], ymd[2], ymd[3], time(ymd[4], ymd[5], ymd[6]), 0, end);
  const mdy =
    /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:,? (\d{1,2}):(\d{2})(?::(\d{2}))?(?: ?([AaPp][Mm]))?)?$/.exec(
      text,
    );
  if (!mdy) return null;
  const short = (mdy[3] as string).length === 2 ? Number(mdy[3]) : null;
  const year = short === null ? mdy[3] : String(short < 70 ? 2000 + short : 1900 + short);
  return dateOf(year, mdy[1], mdy[2], time(mdy[4], mdy[5], mdy[6], mdy[7]), 0, end);
}

export const MAGENTO_WRITES = 'Magento writes it (1/1/30, 12/31/30 11:59 PM, 2030-12-31)';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Google Merchant's `sale_price_effective_date`: an ISO 8601 interval, `start/end`, each with its
 * offset (`2020-01-01T00:00-08:00/2020-01-31T23:59-08:00`); without one, UTC.
 */
export function googleSaleDates(column: string, text: string): SaleDates {
  if (text === '') return { from: null, to: null };
  const bounds = text.split('/').map((part, i) => isoDate(part.trim(), i === 1));
  const [from, to] = bounds;
  if (bounds.length !== 2 || !from || !to)
    return {
      unreadable: `${column} "${text}" is not a period as Google Merchant writes it (2020-01-01T00:00-08:00/2020-01-31T23:59-08:00)`,
    };
  return { from, to };
}

function isoDate(text: string, end: boolean): SaleDate | null {
  const iso = ISO.exec(text);
  if (!iso) return null;
  const offset = offsetOf(iso[7]);
  if (Number.isNaN(offset)) return null;
  return dateOf(iso[1], iso[2], iso[3], time(iso[4], iso[5], iso[6]), offset, end);
}

/** `+01:00`, `-0800`, `Z` or none (UTC) in milliseconds east of UTC; NaN for no real offset. */
function offsetOf(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(-2));
  if (hours > 14 || minutes > 59) return Number.NaN;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes) * 60_000;
}

/** Milliseconds into the day, null when no time is written, NaN when it is not a time. */
function time(hour?: string, minute?: string, second?: string, half?: string): number | null {
  if (hour === undefined) return null;
  let h = Number(hour);
  const m = Number(minute);
  const s = Number(second ?? 0);
  if (half !== undefined) {
    if (h < 1 || h > 12) return Number.NaN;
    h = (h % 12) + (half.toLowerCase() === 'pm' ? 12 : 0);
  }
  if (h > 23 || m > 59 || s > 59) return Number.NaN;
  return ((h * 60 + m) * 60 + s) * 1000;
}

/** A calendar date checked (no 2030-02-30), at its time or else the start or end of its day. */
function dateOf(
  year: string | undefined,
  month: string | undefined,
  day: string | undefined,
  ms: number | null,
  offset: number,
  end: boolean,
): SaleDate | null {
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const midnight = Date.UTC(y, m - 1, d);
  const check = new Date(midnight);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null;
  if (ms !== null && Number.isNaN(ms)) return null;
  const into = ms ?? (end ? 86_400_000 - 1 : 0);
  return { at: midnight + into - offset, day: check.toISOString().slice(0, 10) };
}

function monthOf(name: string): number {
  const lower = name.toLowerCase();
  // `Jul`, `July`, `Sept`: never a word that merely starts like a month (`Marble`).
  const index = MONTHS.findIndex((month) => month.startsWith(lower) && lower.length >= 3);
  return index + 1;
}
