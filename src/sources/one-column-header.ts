import { terminalSafeLine } from '../terminal-safe.js';
import type { CsvDelimiter } from './csv-delimiter.js';
import { DELIMITERS, describeDelimiter } from './detect-delimiter.js';
import { sourceError } from './source-error.js';

/** A header cell longer than this is cut in the message: the delimiter shows in its start. */
const SHOWN_CHARS = 80;

/**
 * Refuses a CSV whose header was read as one column holding a delimiter: the wrong `--delimiter`
 * (`;` on a comma file), a `sep=` line or `.tsv` extension that lies, or a header line quoted whole
 * (detection then finds no delimiter outside quotes). Read on, the run was refused for a key field
 * "no column gives", with a mapping file to write, and never named the delimiter. A one-column
 * file whose header holds no delimiter (`sku`) is read as it is.
 */
export function refuseOneColumnHeader(label: string, header: readonly string[], csv: CsvDelimiter): void {
  const [cell] = header;
  if (header.length !== 1 || cell === undefined) return;
  const { delimiter, how } = csv;
  const shown = `the header was read as one column "${showCell(cell)}"`;
  const used = describeDelimiter(delimiter);
  const other = mostFound(cell, delimiter);
  // The delimiter read with is in the one cell only inside quotes, which it does not split; and
  // detection finds one only outside quotes, so another it did not take stands inside them too.
  const quoted = cell.includes(delimiter) ? delimiter : how === 'detected' ? other : undefined;
  if (quoted !== undefined)
    throw sourceError(
      label,
      `${shown}: its ${describeDelimiter(quoted)} stand inside quotes, which split nothing: remove the quotes around the header's cells`,
    );
  if (other === undefined) return;
  const looks = `the file looks ${other === '\t' ? 'tab' : `'${other}'`}-separated, not ${used}`;
  const fix =
    how === 'forced'
      ? ': check --delimiter (or leave it out: it is detected)'
      : how === 'sep'
        ? ' (the sep= line): correct the sep= line (or remove it: the delimiter is detected)'
        : ` (the .tsv extension): give --delimiter ${describeDelimiter(other)}`;
  throw sourceError(label, `${shown}: ${looks}${fix}`);
}

/** The delimiter other than `used` found most often in `cell`, if any is. */
function mostFound(cell: string, used: string): string | undefined {
  let best: { delimiter: string; count: number } | undefined;
  for (const delimiter of DELIMITERS) {
    if (delimiter === used) continue;
    const count = cell.split(delimiter).length - 1;
    if (count > 0 && (!best || count > best.count)) best = { delimiter, count };
  }
  return best?.delimiter;
}

/** The cell on one line, a tab as `\t`, cut past SHOWN_CHARS. */
function showCell(cell: string): string {
  const cut = cell.length > SHOWN_CHARS ? `${cell.slice(0, SHOWN_CHARS)}…` : cell;
  return terminalSafeLine(cut.replaceAll('\t', '\\t'));
}
