import { DELIMITER_SAMPLE_RECORDS } from '../defaults.js';

/** The delimiters a seller's CSV uses in practice, in the order that wins a tie. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** How a delimiter is shown to a user: a tab is invisible in `'…'`. */
export function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `'${delimiter}'`;
}

/**
 * The delimiter of a CSV from its first lines. For each candidate, count it outside quotes on each
 * line (a quote opens a field only at the start of a field, as `relax_quotes` reads it, so
 * `10" mattress` does not open one). A candidate found the same number of times on every line wins;
 * among those, the one that leaves fewer quotes stranded mid-field, then the highest count. Failing
 * that, the one whose header count most lines share. `complete` is false when the text is a prefix,
 * so its last line may be cut and is left out.
 */
export function detectDelimiter(text: string, complete: boolean): string {
  let best: Candidate | undefined;
  for (const delimiter of DELIMITERS) {
    const { counts, strayQuotes } = scanRecords(text, delimiter, complete);
    const header = counts[0] ?? 0;
    if (header === 0) continue;
    const agreeing = counts.filter((count) => count === header).length;
    const candidate = {
      delimiter,
      consistent: agreeing === counts.length,
      agreeing,
      strayQuotes,
      count: header,
    };
    if (!best || isBetter(candidate, best)) best = candidate;
  }
  return best?.delimiter ?? ',';
}

interface Candidate {
  delimiter: string;
  consistent: boolean;
  agreeing: number;
  strayQuotes: number;
  count: number;
}

function isBetter(a: Candidate, b: Candidate): boolean {
  if (a.consistent !== b.consistent) return a.consistent;
  if (!a.consistent && a.agreeing !== b.agreeing) return a.agreeing > b.agreeing;
  if (a.strayQuotes !== b.strayQuotes) return a.strayQuotes < b.strayQuotes;
  return a.count > b.count;
}

/**
 * Occurrences of `delimiter` outside quotes in each non-blank record of `text`, and how many quotes
 * stand mid-field (not opening a field, nor closing one before a delimiter or line end).
 */
export function scanRecords(
  text: string,
  delimiter: string,
  complete: boolean,
): { counts: number[]; strayQuotes: number } {
  const counts: number[] = [];
  let strayQuotes = 0;
  let count = 0;
  let inQuotes = false;
  let atFieldStart = true;
  let blank = true;
  for (let i = 0; i < text.length && counts.length < DELIMITER_SAMPLE_RECORDS; i++) {
    const char = text[i];
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') i++;
        else {
          inQuotes = false;
          const next = text[i + 1];
          if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') strayQuotes++;
        }
      }
      continue;
    }
    if (char === '\n' || char === '\r') {
      if (!blank) counts.push(count);
      count = 0;
      blank = true;
      atFieldStart = true;
      continue;
    }
    if (char !== ' ') blank = false;
    if (char === delimiter) {
      count++;
      atFieldStart = true;
    } else if (char === '"' && atFieldStart) {
      inQuotes = true;
    } else {
      if (char === '"') strayQuotes++;
      atFieldStart = false;
    }
  }
  if (complete && !blank && counts.length < DELIMITER_SAMPLE_RECORDS) counts.push(count);
  return { counts, strayQuotes };
}
