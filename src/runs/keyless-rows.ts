/**
 * The source rows a run read with no key it could read (the key cell blank, or its bytes not in
 * the file's encoding) or none it can trust (a SKU a spreadsheet made `1.23457E+08`): such a row is
 * invalid, and nothing says which product it stands for, so any product `--missing` finds gone may
 * be it (missing/verdict.ts keylessText holds them). Kept in the run's record: how many, and the
 * first few, which a reason names.
 */
export interface KeylessRows {
  count: number;
  /** The first rows, in source order: at most KEYLESS_SHOWN. */
  rows: number[];
  /** How many of the rows keep a key the tool cannot trust; absent when none does. */
  untrusted?: number;
  /** Those keys, of the rows named in `rows` (what a reason shows of them). */
  keys?: Record<number, string>;
}

/** Run record fields (set by the one reader of the source, queue/producer.ts). */
const COUNT = 'keylessRows';
const FIRST = 'keylessFirst';
/** Written only for a source with a row whose key cannot be trusted: older runs have neither. */
const UNTRUSTED = 'keylessUntrusted';
const KEYS = 'keylessKeys';

/** The rows a reason names; the others are counted (`and 5 more`). */
const KEYLESS_SHOWN = 3;
/** A key kept in the record is cut to this many characters: a reason is one line. */
const KEY_CHARS = 40;

/**
 * The reader's tally, written with the chunk that read the rows: the whole tally each time (its
 * fields are set, not added to), so that a batch written again writes the same. Nothing is written
 * for a source with no such row: a nightly run costs no command for it.
 */
export class KeylessTally {
  private count = 0;
  private readonly rows: number[] = [];
  private untrusted = 0;
  private readonly keys: Record<number, string> = {};
  private unwritten = false;

  /** `untrustedKey`: the key the row keeps that cannot be trusted; none for a row with no key. */
  add(row: number, untrustedKey?: string): void {
    this.count++;
    const named = this.rows.length < KEYLESS_SHOWN;
    if (named) this.rows.push(row);
    if (untrustedKey !== undefined) {
      this.untrusted++;
      if (named) this.keys[row] = shortened(untrustedKey);
    }
    this.unwritten = true;
  }

  /** The run-record fields to set, once after rows were added; null when nothing changed. */
  take(): Record<string, string> | null {
    if (!this.unwritten) return null;
    this.unwritten = false;
    const fields = { [COUNT]: String(this.count), [FIRST]: this.rows.join(',') };
    if (this.untrusted === 0) return fields;
    return { ...fields, [UNTRUSTED]: String(this.untrusted), [KEYS]: JSON.stringify(this.keys) };
  }
}

/** The run record's tally, or undefined for a run whose every row had its key. */
export function keylessOf(hash: Record<string, string>): KeylessRows | undefined {
  const count = Number(hash[COUNT] ?? 0);
  if (!(count > 0)) return undefined;
  const rows = (hash[FIRST] ?? '')
    .split(',')
    .map(Number)
    .filter((row) => Number.isInteger(row) && row > 0)
    .slice(0, KEYLESS_SHOWN);
  const untrusted = Number(hash[UNTRUSTED] ?? 0);
  if (!(untrusted > 0)) return { count, rows };
  return { count, rows, untrusted: Math.min(untrusted, count), keys: keysOf(hash[KEYS], rows) };
}

/** The named rows' keys as recorded: what is not a text of a named row is left out. */
function keysOf(json: string | undefined, rows: number[]): Record<number, string> {
  const keys: Record<number, string> = {};
  let read: unknown;
  try {
    read = JSON.parse(json ?? '{}');
  } catch {
    return keys;
  }
  if (typeof read !== 'object' || read === null) return keys;
  for (const row of rows) {
    const key = (read as Record<string, unknown>)[String(row)];
    if (typeof key === 'string') keys[row] = shortened(key);
  }
  return keys;
}

function shortened(key: string): string {
  return key.length > KEY_CHARS ? `${key.slice(0, KEY_CHARS - 1)}…` : key;
}
