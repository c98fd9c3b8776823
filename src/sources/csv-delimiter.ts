import { DELIMITERS, describeDelimiter, detectDelimiter } from './detect-delimiter.js';
import { sourceError } from './source-error.js';

/** The delimiter a CSV is read with, and the line its header is looked for from. */
export interface CsvDelimiter {
  delimiter: string;
  /** 2 past a `sep=` line, else 1: csv-parse's `from_line`, so lines keep the file's numbers. */
  fromLine: number;
  /** Where it came from, for a refusal that names what to fix (one-column-header.ts). */
  how: 'forced' | 'sep' | 'tsv' | 'detected';
}

/**
 * Excel's `sep=;` alone on line 1 (it writes one for a locale whose list separator is not the
 * comma's, and honours it on opening): the delimiter it names, or undefined for any other first
 * line. A BOM before it (left by a decoder that does not strip it) and a `\r` after are allowed;
 * a quote or a line break cannot be a delimiter, so `sep="` is a header like any other.
 */
export function sepLineDelimiter(sample: string): string | undefined {
  return /^\uFEFF?sep=([^"\r\n])\r?(?:\n|$)/.exec(sample)?.[1];
}

/**
 * The delimiter: `--delimiter`, else a `sep=` line, else a `.tsv` extension, else detected from
 * the first records. A `sep=` line is skipped whichever wins (it is no header), and the summary's
 * line says where the delimiter came from. A `sep=` line naming a delimiter this tool does not
 * read (`sep=:`) is refused rather than read as a header whose one column names nothing.
 */
export function chooseDelimiter(
  sample: string,
  complete: boolean,
  label: string,
  extension: string,
  forced: string | undefined,
  detections: string[],
): CsvDelimiter {
  const declared = sepLineDelimiter(sample);
  const fromLine = declared === undefined ? 1 : 2;
  if (forced) {
    const over =
      declared !== undefined && declared !== forced
        ? `, over the sep= line's ${describeDelimiter(declared)}`
        : '';
    detections.push(`delimiter ${describeDelimiter(forced)} (forced${over})`);
    return { delimiter: forced, fromLine, how: 'forced' };
  }
  if (declared !== undefined) {
    if (!(DELIMITERS as readonly string[]).includes(declared)) {
      throw sourceError(
        label,
        `line 1 (sep=) names the delimiter ${describeDelimiter(declared)}, which catalog-sync does not read: save the file with , ; tab or | as its delimiter`,
      );
    }
    detections.push(`delimiter ${describeDelimiter(declared)} (from the sep= line)`);
    return { delimiter: declared, fromLine, how: 'sep' };
  }
  if (extension === 'tsv') {
    detections.push(`delimiter tab (from the .tsv extension)`);
    return { delimiter: '\t', fromLine, how: 'tsv' };
  }
  const delimiter = detectDelimiter(sample, complete);
  detections.push(`delimiter ${describeDelimiter(delimiter)} (detected)`);
  return { delimiter, fromLine, how: 'detected' };
}
