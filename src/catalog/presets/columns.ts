import type { SourceRecord } from '../../interfaces.js';
import { trimCell } from '../cell-text.js';
import { listCell } from '../source-lists.js';

/**
 * Finds a preset's columns by name, forgiving the ways exports spell them: any case, surrounding
 * spaces, eBay's required-marker `*` and `(SiteID=…)` suffix, Google Merchant's `g:` prefix.
 */
export function normaliseColumn(name: string): string {
  return name
    .trim()
    .replace(/^\*/, '')
    .replace(/^g:/i, '')
    .replace(/\((?:SiteID|Site)=[^)]*\)$/i, '')
    .trim()
    .toLowerCase();
}

export class Columns {
  private readonly byName = new Map<string, string>();
  private readonly names: string[] = [];
  /** Every column name met, as written (open columns: a record's are checked against it). */
  private readonly met = new Set<string>();
  /** The last record whose columns were learnt (open columns). */
  private learntFrom: SourceRecord | undefined;

  /**
   * `open`: the records name their own fields (JSON, NDJSON, XML), so a later record may bring a
   * column the first ones lack (an item's optional `<description>`): a reader of a column not known
   * yet looks for it in each record until one brings it. A CSV record has the header's columns only.
   */
  constructor(
    columns: readonly string[],
    private readonly open = false,
  ) {
    for (const column of columns) this.add(column);
  }

  /** The columns known so far: the header's, and for open columns those records brought since. */
  get all(): readonly string[] {
    return this.names;
  }

  /** The actual name of the first candidate present (candidates as normalised names or patterns). */
  find(...candidates: (string | RegExp)[]): string | undefined {
    for (const candidate of candidates) {
      if (typeof candidate === 'string') {
        const hit = this.byName.get(candidate.toLowerCase());
        if (hit !== undefined) return hit;
      } else {
        const hit = this.names.find((column) => candidate.test(normaliseColumn(column)));
        if (hit !== undefined) return hit;
      }
    }
    return undefined;
  }

  has(name: string): boolean {
    return this.byName.has(name.toLowerCase());
  }

  /** A reader of one column's trimmed text ('' when blank or absent). */
  reader(...candidates: (string | RegExp)[]): (record: SourceRecord) => string {
    const column = this.find(...candidates);
    if (column !== undefined) return (record) => trimCell(record.values[column] ?? '');
    if (!this.open) return () => '';
    const later = this.foundLater(candidates);
    return (record) => {
      const found = later(record);
      return found === undefined ? '' : trimCell(record.values[found] ?? '');
    };
  }

  /**
   * A reader of one column as a list field reads it (source-lists.ts): a list the source gave, item
   * by item, else the text split on `,`; [] when blank or absent.
   */
  list(...candidates: (string | RegExp)[]): (record: SourceRecord) => string[] {
    const column = this.find(...candidates);
    if (column !== undefined) return (record) => listCell(record, column);
    if (!this.open) return () => [];
    const later = this.foundLater(candidates);
    return (record) => {
      const found = later(record);
      return found === undefined ? [] : listCell(record, found);
    };
  }

  /** Open columns: the column of the first candidate, looked for in each record until one brings it. */
  private foundLater(candidates: (string | RegExp)[]): (record: SourceRecord) => string | undefined {
    let found: string | undefined;
    return (record) => {
      if (found === undefined) {
        this.learn(record);
        found = this.find(...candidates);
      }
      return found;
    };
  }

  private add(column: string): void {
    this.met.add(column);
    this.names.push(column);
    const key = normaliseColumn(column);
    if (!this.byName.has(key)) this.byName.set(key, column);
  }

  /** The record's columns not known yet become known (once per record, whichever reader asks). */
  private learn(record: SourceRecord): void {
    if (record === this.learntFrom) return;
    this.learntFrom = record;
    for (const column in record.values) if (!this.met.has(column)) this.add(column);
  }
}

/** Puts a field in when its text is not blank: a blank cell means "leave as it is". */
export function put(
  fields: Record<string, string | string[]>,
  field: string,
  value: string | string[],
): void {
  if (Array.isArray(value) ? value.length > 0 : value !== '') fields[field] = value;
}

/** A stable, readable key part: lowercase letters and digits of any script, runs of others as `-`. */
export function slug(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}
