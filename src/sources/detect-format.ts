import type { SourceFormat } from './types.js';

export interface FormatGuess {
  format: SourceFormat;
  /** For the detections line. */
  reason: string;
}

const EXTENSION_FORMATS: Record<string, SourceFormat> = {
  csv: 'csv',
  tsv: 'csv',
  txt: 'csv',
  json: 'json',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  xml: 'xml',
};

/** The lower-case extension of a path or URL path, without the dot ('' when none). */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The format of a source from the start of its text. The content decides: `[`/`{` is JSON, `<` is XML,
 * anything else CSV. The extension only settles what the content leaves open: a single `{…}` line (or
 * a first line that does not end within the sample) is NDJSON under `.ndjson`/`.jsonl`, a JSON
 * object otherwise.
 */
export function detectFormat(text: string, extension: string): FormatGuess {
  const hinted = EXTENSION_FORMATS[extension];
  const start = text.trimStart();
  const first = start[0];
  if (first === '<') return guess('xml', hinted);
  if (first === '[') return guess('json', hinted);
  if (first === '{') {
    if (looksLikeNdjson(start)) return guess('ndjson', hinted);
    if (hinted === 'ndjson' && isWholeObject(firstLine(start))) return guess('ndjson', hinted);
    // A first line longer than the sample: the extension decides (the line's length is the reader's to judge).
    if (hinted === 'ndjson' && !/[\r\n]/.test(start)) return guess('ndjson', hinted);
    return guess('json', hinted);
  }
  return guess('csv', hinted);
}

function guess(format: SourceFormat, hinted: SourceFormat | undefined): FormatGuess {
  if (hinted === undefined || hinted === format) return { format, reason: 'detected' };
  return { format, reason: `detected from the content, not the extension` };
}

/** NDJSON: the first line is a whole object and a later non-blank line opens another one. */
function looksLikeNdjson(text: string): boolean {
  const lines = text.split(/\r?\n/);
  if (!isWholeObject(lines[0] ?? '')) return false;
  const next = lines.slice(1).find((line) => line.trim() !== '');
  return next?.trimStart().startsWith('{') ?? false;
}

function firstLine(text: string): string {
  const end = text.search(/\r?\n/);
  return end === -1 ? text : text.slice(0, end);
}

function isWholeObject(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}
