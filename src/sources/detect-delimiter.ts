/** The delimiters a seller's CSV uses in practice, in the order that wins a tie. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** How a delimiter is shown to a user: a tab is invisible in `'…'`. */
export function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : `'${delimiter}'`;
}

/**
 * The delimiter of a CSV from its first lines. For each candidate, count it outside quotes on each
 * line (a quote opens a field only at the start of a field, as `relax_quotes` reads it, so
 * `10" mattress` does not open one). A candidate found the same number of times on every line wins,
 * the highest count first; failing that, the one whose header count most lines share.
 * `complete` is false when the text is a prefix, so its last line may be cut and is left out.
 */
export function detectDelimiter(text: string, complete: boolean): string {
  let best: { delimiter: string; consistent: boolean; agreeing: number; count: number } | undefined;
  for (const delimiter of DELIMITERS) {
    const counts = countPerRecord(text, delimiter, complete);
    const header = counts[0] ?? 0;
    if (header === 0) continue;
    const agreeing = counts.filter((count) => count === header).length;
    const candidate = { delimiter, consistent: agreeing === counts.length, agreeing, count: header };
    if (!best || isBetter(candidate, best)) best = candidate;
  }
  return best?.delimiter ?? ',';
}

function isBetter(
  a: { consistent: boolean; agreeing: number; count: number },
  b: { consistent: boolean; agreeing: number; count: number },
): boolean {
  if (a.consistent !== b.consistent) return a.consistent;
  if (a.consistent) return a.count > b.count;
  return a.agreeing > b.agreeing || (a.agreeing === b.agreeing && a.count > b.count);
}

const MAX_RECORDS = 20;

/** Occurrences of `delimiter` outside quotes in each non-blank record of `text`. */
export function countPerRecord(text: string, delimiter: string, complete: boolean): number[] {
  const counts: number[] = [];
  let count = 0;
  let inQuotes = false;
  let atFieldStart = true;
  let blank = true;
  for (let i = 0; i < text.length && counts.length < MAX_RECORDS; i++) {
    const char = text[i];
    if (inQuotes) {
      if (char === '"') {
        if (text[i + 1] === '"') i++;
        else inQuotes = false;
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
      atFieldStart = false;
    }
  }
  if (complete && !blank && counts.length < MAX_RECORDS) counts.push(count);
  return counts;
}
