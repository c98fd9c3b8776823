import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { PACKED_BLOCK_ROWS } from './packed-outcomes.js';

// The outcomes of a run that ended that are not plain `unchanged` ones (an update, a create, an
// error, a note), packed too since issue 31: a nightly run's 1% of updates kept ~90 bytes a row as
// fields of their own for 7 days. Each block of rows keeps them in one field beside its unchanged
// rows' (packed-outcomes.ts): their row offsets and their stored lines as they were, deflated, so
// each line reads back exactly as it was stored. Runs packed before keep them as fields of their own.

/** The hash field of the other lines of block `block`; never a row number, never a `u:` field. */
export function otherLinesField(block: number): string {
  return `o:${block}`;
}

/** Stored form, before deflate: [offsets from the block's first row, the lines (outcome-codec.ts)]. */
type StoredLines = [number[], string[]];

export function packOtherLines(block: number, lines: ReadonlyMap<number, string>): Buffer {
  const first = block * PACKED_BLOCK_ROWS + 1;
  const rows = [...lines.keys()].sort((a, b) => a - b);
  const stored: StoredLines = [rows.map((row) => row - first), rows.map((row) => lines.get(row) as string)];
  return deflateRawSync(JSON.stringify(stored));
}

/**
 * Row → stored line. What Redis holds is not trusted: an offset outside the block or a line that is
 * not a string is left out.
 */
export function unpackOtherLines(block: number, packed: Buffer): Map<number, string> {
  const [offsets, stored] = JSON.parse(inflateRawSync(packed).toString('utf8')) as StoredLines;
  const first = block * PACKED_BLOCK_ROWS + 1;
  const lines = new Map<number, string>();
  offsets.forEach((offset, i) => {
    const line = stored[i];
    if (Number.isInteger(offset) && offset >= 0 && offset < PACKED_BLOCK_ROWS && typeof line === 'string')
      lines.set(first + offset, line);
  });
  return lines;
}
