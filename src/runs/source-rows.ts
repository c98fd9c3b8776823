import { relay } from '../async-relay.js';
import type { ParentNotes } from '../catalog/mapper.js';
import type { SourceRecord } from '../interfaces.js';

/** The raw values of a row another took product fields from (a variant's parent). */
export interface ParentSource {
  row: number;
  values: string[];
}

/**
 * A row's raw source values, kept by a row that fails (`report --failed-only`): the values alone,
 * or, for a row that took product fields from others (a Shopify variant, a WooCommerce, Amazon,
 * Magento, Shopware or BigCommerce variation), with theirs, written back with it. A parent given
 * by its row number alone has its values kept once per run (parent-sources.ts).
 */
export type RowSource = string[] | { values: string[]; parents: (ParentSource | number)[] };

/**
 * What the producer asks of the source rows it carries along (`report --failed-only`): each row's
 * raw values, and the source's header whenever it has grown since last asked.
 */
export interface SourceRows {
  /** The row's raw values, aligned to the header, with the rows it took fields from; forgotten once taken. */
  take(row: number): RowSource | undefined;
  /** The whole header when it changed since the last call, else null. */
  headerChange(): string[] | null;
  /** The CSV delimiter a file of these rows is written with: the source's (`,` for JSON and XML). */
  readonly delimiter: string;
}

/**
 * Keeps each source record's raw values, as an array aligned to the source's header, from the
 * moment it is read until its mapped row is queued or settled: a preset may hold a group of records
 * before their rows come out, so this holds a group at most, never the source.
 *
 * CSV: the columns are the header's, named as the source writes them. JSON, NDJSON, XML: a record's
 * (flattened) keys are the columns, in the order first seen; a key first met in a later record
 * grows the header, and arrays stored earlier stay aligned (they are simply shorter). A list is
 * kept as the CSV cell it is written as (listText).
 */
export class SourceRowCapture implements SourceRows, ParentNotes {
  private readonly header: string[];
  private readonly position = new Map<string, number>();
  private readonly pending = new Map<number, string[]>();
  /** Rows that took fields from other records, until taken: their values. */
  private readonly parents = new Map<number, ParentSource[]>();
  /**
   * Each parent's values by the preset's record for it, kept from its first child on (its own row
   * is taken then): held as long as the preset holds the record, for its later children.
   */
  private readonly parentValues = new WeakMap<SourceRecord, ParentSource>();
  private changed = true;

  /**
   * `columns`: the names records are keyed by; `header`: how the source writes them (CSV), same
   * positions; `delimiter`: the source's, kept so that a `;` file's comma decimals read the same.
   */
  constructor(
    columns: readonly string[],
    header: readonly string[] = columns,
    readonly delimiter = ',',
  ) {
    this.header = columns.map((name, i) => header[i] ?? name);
    columns.forEach((name, i) => {
      this.position.set(name, i);
    });
  }

  /** Passes the records through, keeping the values of each. */
  tap(records: AsyncIterable<SourceRecord>): AsyncIterableIterator<SourceRecord> {
    return relay(records[Symbol.asyncIterator](), {
      each: (record) => {
        this.pending.set(record.row, this.valuesOf(record));
        return record;
      },
    });
  }

  /**
   * `row` took product fields from `records` (ParentNotes, told by the mapper). Their values are the
   * ones read for their rows, whatever the preset's records hold (Amazon's template rows are
   * renamed): the file gives back what the source wrote. A parent is given out with its first child
   * or as a merged row (remember), before its row is taken; one that is not is left out.
   */
  inherits(row: number, records: readonly SourceRecord[]): void {
    const sources: ParentSource[] = [];
    for (const record of records) {
      const source = this.parentValues.get(record) ?? this.remembered(record);
      if (source) sources.push(source);
    }
    if (sources.length > 0)
      this.parents.set(
        row,
        sources.sort((a, b) => a.row - b.row),
      );
  }

  remember(merged: SourceRecord): void {
    if (!this.parentValues.has(merged)) this.remembered(merged);
  }

  /** Keeps the values read for the record's row, by the record, while its row is not taken yet. */
  private remembered(record: SourceRecord): ParentSource | undefined {
    const values = this.pending.get(record.row);
    if (!values) return undefined;
    const source = { row: record.row, values };
    this.parentValues.set(record, source);
    return source;
  }

  take(row: number): RowSource | undefined {
    const values = this.pending.get(row);
    this.pending.delete(row);
    const parents = this.parents.get(row);
    if (!parents) return values;
    this.parents.delete(row);
    return { values: values ?? [], parents };
  }

  headerChange(): string[] | null {
    if (!this.changed) return null;
    this.changed = false;
    return [...this.header];
  }

  /**
   * Trailing blanks are left off: job data stays compact, and a missing cell reads as blank.
   * Written as plain loops over the record (no entries array, no second array per row): it runs
   * once per source row.
   */
  private valuesOf(record: SourceRecord): string[] {
    const values: string[] = [];
    const cells = record.values;
    const { lists } = record;
    for (const name in cells) {
      let at = this.position.get(name);
      if (at === undefined) {
        at = this.header.length;
        this.header.push(name);
        this.position.set(name, at);
        this.changed = true;
      }
      values[at] =
        lists !== undefined && Object.hasOwn(lists, name) ? listText(lists[name]) : (cells[name] as string);
    }
    let end = values.length;
    while (end > 0 && !values[end - 1]) end--;
    values.length = end;
    for (let i = 0; i < end; i++) values[i] ??= '';
    return values;
  }
}

/**
 * A list the source gave (a JSON array, repeated XML elements) as a cell of the CSV file: its items
 * joined with `, `, as a list field reads a cell, so the file imports back with the same images and
 * tags (but for an item holding a `,`, which comes back as two).
 */
function listText(items: readonly string[] | undefined): string {
  return items === undefined ? '' : items.join(', ');
}
