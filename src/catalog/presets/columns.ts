import type { SourceRecord } from '../../interfaces.js';

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

  constructor(readonly all: readonly string[]) {
    for (const column of all) {
      const key = normaliseColumn(column);
      if (!this.byName.has(key)) this.byName.set(key, column);
    }
  }

  /** The actual name of the first candidate present (candidates as normalised names or patterns). */
  find(...candidates: (string | RegExp)[]): string | undefined {
    for (const candidate of candidates) {
      if (typeof candidate === 'string') {
        const hit = this.byName.get(candidate.toLowerCase());
        if (hit !== undefined) return hit;
      } else {
        const hit = this.all.find((column) => candidate.test(normaliseColumn(column)));
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
    if (column === undefined) return () => '';
    return (record) => (record.values[column] ?? '').trim();
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
