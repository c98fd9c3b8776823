import { join, resolve } from 'node:path';
import { createMapper, loadMappingFile, type MapperOptions, peekRecords } from '../../src/catalog/index.js';
import type { MappedRow, ProductUpsert, SourceRecord } from '../../src/interfaces.js';
import { type RowSource, SourceRowCapture } from '../../src/runs/source-rows.js';
import { openSource } from '../../src/sources/index.js';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';

const repoRoot = join(import.meta.dirname, '../..');
export const realDir = REAL_FIXTURES_DIR;

export interface MappedFile {
  records: number;
  rows: MappedRow[];
  detections: string[];
  upserts: ProductUpsert[];
  counts: { upsert: number; invalid: number; merged: number; skipped: number };
  byKey(key: string): ProductUpsert;
  /** Each row's raw values as `run` carries them for `report --failed-only` (SourceRowCapture). */
  sources: Map<number, RowSource>;
}

/** Reads a real export through openSource and maps it; counts the records that went in. */
export async function mapRealFile(
  relativePath: string,
  options: Partial<MapperOptions> & {
    mappingFile?: string;
    sourceDelimiter?: string;
    /** Renames the header (a test's translation of it): the records' values follow. */
    header?: (columns: string[]) => string[];
  } = {},
): Promise<MappedFile> {
  const { mappingFile, sourceDelimiter, header, ...mapperOptions } = options;
  const source = await openSource(
    resolve(realDir, relativePath),
    sourceDelimiter ? { delimiter: sourceDelimiter } : {},
  );
  try {
    const mapping = mappingFile
      ? await loadMappingFile(join(repoRoot, 'fixtures/mappings', mappingFile))
      : undefined;
    const columns = header ? header(source.columns) : source.columns;
    async function* renamed(): AsyncIterable<SourceRecord> {
      for await (const record of source.records) {
        if (!header) yield record;
        else {
          const values: Record<string, string> = {};
          source.columns.forEach((column, i) => {
            const value = record.values[column];
            if (value !== undefined) values[columns[i] ?? column] = value;
          });
          yield { ...record, values };
        }
      }
    }
    // As prepareRun does: the first records read ahead, for detection by values.
    const peeked = await peekRecords(renamed());
    const mapper = createMapper({
      columns,
      sample: peeked.sample,
      ...(source.delimiter !== undefined ? { delimiter: source.delimiter } : {}),
      openColumns: source.openColumns,
      ...(mapping ? { mapping } : {}),
      ...mapperOptions,
    });
    let records = 0;
    async function* counted(): AsyncIterable<SourceRecord> {
      for await (const record of peeked.records) {
        records++;
        yield record;
      }
    }
    const rows: MappedRow[] = [];
    // As prepareRun does: the capture taps the records and hears which rows others take fields from.
    const capture = new SourceRowCapture(columns, source.header ?? columns, source.delimiter);
    const sources = new Map<number, RowSource>();
    for await (const row of mapper.map(capture.tap(counted()), capture)) {
      rows.push(row);
      const taken = capture.take(row.row);
      if (taken) sources.set(row.row, taken);
    }
    const upserts = rows.filter((row): row is ProductUpsert => row.kind === 'upsert');
    const counts = { upsert: 0, invalid: 0, merged: 0, skipped: 0 };
    for (const row of rows) counts[row.kind]++;
    return {
      records,
      rows,
      sources,
      detections: [...source.detections, ...mapper.detections],
      upserts,
      counts,
      byKey(key) {
        const found = upserts.find((upsert) => upsert.key === key);
        if (!found) throw new Error(`no upsert with key ${key}`);
        return found;
      },
    };
  } finally {
    await source.close();
  }
}

/** Every record came out as exactly one row, and each row number once. */
export function unexplainedRows(file: MappedFile): string[] {
  const problems: string[] = [];
  if (file.rows.length !== file.records)
    problems.push(`${file.records} records but ${file.rows.length} rows`);
  const numbers = file.rows.map((row) => row.row).sort((a, b) => a - b);
  numbers.forEach((n, i) => {
    if (n !== i + 1) problems.push(`row ${i + 1} is not reported once (found ${n})`);
  });
  for (const row of file.rows) {
    if (row.kind === 'invalid' && row.reason.trim() === '')
      problems.push(`row ${row.row} invalid without reason`);
    if (row.kind === 'merged' && row.reason.trim() === '')
      problems.push(`row ${row.row} merged without reason`);
    if (row.kind === 'skipped' && row.reason.trim() === '')
      problems.push(`row ${row.row} skipped without reason`);
  }
  return problems.slice(0, 5);
}
