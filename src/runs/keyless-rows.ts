/**
 * The source rows a run read with no key it could read (the key cell blank, or its bytes not in
 * the file's encoding): such a row is invalid, and nothing says which product it stands for, so
 * any product `--missing` finds gone may be it (missing/verdict.ts keylessText holds them).
 * Kept in the run's record: how many, and the first few, which a reason names.
 */
export interface KeylessRows {
  count: number;
  /** The first rows, in source order: at most KEYLESS_SHOWN. */
  rows: number[];
}

/** Run record fields (set by the one reader of the source, queue/producer.ts). */
const COUNT = 'keylessRows';
const FIRST = 'keylessFirst';

/** The rows a reason names; the others are counted (`and 5 more`). */
const KEYLESS_SHOWN = 3;

/**
 * The reader's tally, written with the chunk that read the rows: the whole tally each time (its
 * fields are set, not added to), so that a batch written again writes the same. Nothing is written
 * for a source with no such row: a nightly run costs no command for it.
 */
export class KeylessTally {
  private count = 0;
  private readonly rows: number[] = [];
  private unwritten = false;

  add(row: number): void {
    this.count++;
    if (this.rows.length < KEYLESS_SHOWN) this.rows.push(row);
    this.unwritten = true;
  }

  /** The run-record fields to set, once after rows were added; null when nothing changed. */
  take(): Record<string, string> | null {
    if (!this.unwritten) return null;
    this.unwritten = false;
    return { [COUNT]: String(this.count), [FIRST]: this.rows.join(',') };
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
  return { count, rows };
}
