import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';

/**
 * The real PrestaShop sample, rewritten in `dir` as a shop would export it: `edit` sets cells of each
 * data row (by column name) before the file is written in `encoding`.
 */
export async function editedSample(
  dir: string,
  encoding: BufferEncoding,
  edit: (cell: (column: string, value: string) => void, row: number) => void,
): Promise<string> {
  const text = await readFile(join(REAL_FIXTURES_DIR, 'prestashop/products_import.csv'), 'utf8');
  const [header = '', ...lines] = text.split('\n');
  const columns = header.split(';');
  const changed = lines.map((line, i) => {
    if (line === '') return line;
    const cells = line.split(';');
    edit((column, value) => {
      cells[columns.indexOf(column)] = value;
    }, i);
    return cells.join(';');
  });
  const path = join(dir, 'export.csv');
  await writeFile(path, Buffer.from([header, ...changed].join('\n'), encoding));
  return path;
}
