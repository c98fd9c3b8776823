import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';

export interface Resave {
  /** Cells set before the re-save, as the seller typed them: [data row from 0, column, value]. */
  edits?: Array<[row: number, column: string, value: string]>;
  /** `cp1252` (a spreadsheet's "CSV" on Windows) or `utf-8-bom` ("CSV UTF-8"). */
  encoding: 'cp1252' | 'utf-8-bom';
}

/**
 * A real export (`file` under the real fixtures) opened and saved again by a spreadsheet in a
 * comma-decimal locale (German, French …), written in `dir`: `;` between cells, CRLF, a decimal
 * comma in every number that had a dot (`226.796185` → `226,796185`, `1.23` → `1,23`). Cells that
 * are not plain numbers (`3.65275E+11`, text) are left as written. Made at test time, so that no
 * copy of the export lives in the repository.
 */
export async function resavedExport(dir: string, file: string, resave: Resave): Promise<string> {
  const [header = [], ...rows] = parse(await readFile(join(REAL_FIXTURES_DIR, file), 'utf8'), {
    relax_column_count: true,
  }) as string[][];
  for (const [row, column, value] of resave.edits ?? []) {
    const cells = rows[row];
    const at = header.indexOf(column);
    if (!cells || at < 0) throw new Error(`${file} has no row ${row} or column ${column}`);
    cells[at] = value;
  }
  const commas = rows.map((cells) =>
    cells.map((cell) => (/^-?\d+\.\d+$/.test(cell) ? cell.replace('.', ',') : cell)),
  );
  const text = stringify([header, ...commas], { delimiter: ';', record_delimiter: '\r\n' });
  if (resave.encoding === 'cp1252' && /[^\u0000-\u00ff]/.test(text))
    throw new Error('only Latin-1 characters are written the same in cp1252 here');
  const bytes =
    resave.encoding === 'cp1252'
      ? Buffer.from(text, 'latin1')
      : Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
  const path = join(dir, `resaved-${file.replace(/\W+/g, '-')}`);
  await writeFile(path, bytes);
  return path;
}
