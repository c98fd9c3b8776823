import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { RowOutcome } from '../interfaces.js';
import { decodeKeySequence, encodeKeySequence, type KeyCodes } from './key-sequence.js';
import { encodeOutcome } from './outcome-codec.js';

// The `unchanged` rows of a run that ended, packed (issue 12: Redis kept per product). Nightly
// re-runs settle nearly every row `unchanged`; a hash field of JSON per row costs ~90 bytes. At the
// run's end, each block of PACKED_BLOCK_ROWS rows has its plain unchanged outcomes moved into one
// field of the outcomes hash: their row numbers as ranges, their keys and product ids, deflated.
// Any other outcome (a note, an error, another action) stays a field of its own: only outcomes
// that decode back to the very same line are packed, so the report reads the same.

export const PACKED_BLOCK_ROWS = 1024;

/** The hash field of block `block` (rows block·1024+1 to (block+1)·1024); never a row number. */
export function packedField(block: number): string {
  return `u:${block}`;
}

export function blockOfRow(row: number): number {
  return Math.floor((row - 1) / PACKED_BLOCK_ROWS);
}

/** An unchanged row as a block keeps it. */
export interface PackedRow {
  row: number;
  key: string;
  productId: string;
}

function unchangedLine(row: PackedRow): RowOutcome {
  return {
    row: row.row,
    key: row.key,
    action: 'unchanged',
    productId: row.productId,
    status: 'ok',
    error: '',
  };
}

/** The row as a block would keep it, when its stored outcome is exactly a plain unchanged one. */
export function packable(row: number, stored: string): PackedRow | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed[1] !== 'unchanged' || typeof parsed[0] !== 'string') return null;
  if (typeof parsed[2] !== 'string') return null;
  const packed = { row, key: parsed[0], productId: parsed[2] };
  return encodeOutcome(unchangedLine(packed)) === stored ? packed : null;
}

// Stored form, before deflate: [[offset, length, …], keys, productIds, flags?]; offsets from the
// block's first row. Product ids that are all decimal integers are kept as differences (flag
// DELTA_IDS), which deflate to a byte or two per row. Since issue 31 the keys are kept as each
// differs from the one before (flag CODED_KEYS, key-sequence.ts): an export sorted by SKU
// deflated to ~2 bytes a key spelled out, and to a few bits coded. A block without flags (written
// before either) or with DELTA_IDS alone is read as it was written.
const DELTA_IDS = 1;
const CODED_KEYS = 2;
type StoredBlock = [number[], string[] | KeyCodes, string[] | number[], number?];

export function packBlock(rows: PackedRow[]): Buffer {
  const sorted = [...rows].sort((a, b) => a.row - b.row);
  const first = sorted.length > 0 ? blockOfRow((sorted[0] as PackedRow).row) * PACKED_BLOCK_ROWS + 1 : 1;
  const ranges: number[] = [];
  for (const { row } of sorted) {
    const last = ranges.length - 2;
    if (last >= 0 && (ranges[last] as number) + (ranges[last + 1] as number) === row - first) {
      ranges[last + 1] = (ranges[last + 1] as number) + 1;
    } else ranges.push(row - first, 1);
  }
  const ids = sorted.map((r) => r.productId);
  const decimal = ids.every((id) => /^(0|[1-9]\d{0,14})$/.test(id));
  const storedIds = decimal ? ids.map((id, i) => Number(id) - (i > 0 ? Number(ids[i - 1]) : 0)) : ids;
  const idFlags = decimal ? DELTA_IDS : 0;
  const keys = sorted.map((r) => r.key);
  const coded = deflateRawSync(
    JSON.stringify([ranges, encodeKeySequence(keys), storedIds, idFlags | CODED_KEYS]),
  );
  // Keys in no order code no smaller than spelled out (a shared length of 0 each): the smaller form.
  const spelled = deflateRawSync(JSON.stringify([ranges, keys, storedIds, ...(decimal ? [DELTA_IDS] : [])]));
  return coded.length < spelled.length ? coded : spelled;
}

export function unpackBlock(block: number, packed: Buffer): PackedRow[] {
  const [ranges, storedKeys, ids, flags = 0] = JSON.parse(
    inflateRawSync(packed).toString('utf8'),
  ) as StoredBlock;
  const keys = flags & CODED_KEYS ? decodeKeySequence(storedKeys as KeyCodes) : (storedKeys as string[]);
  const first = block * PACKED_BLOCK_ROWS + 1;
  const rows: PackedRow[] = [];
  let previous = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    // A block holds one key per row: a range longer than that was not packed here (Redis is not
    // trusted), and must not loop for ever.
    for (let i = 0; i < (ranges[r + 1] as number) && rows.length < keys.length; i++) {
      const index = rows.length;
      const id = ids[index] as string | number;
      const productId = flags & DELTA_IDS ? String(previous + (id as number)) : (id as string);
      previous = Number(productId);
      rows.push({ row: first + (ranges[r] as number) + i, key: keys[index] as string, productId });
    }
  }
  return rows;
}

/** The report line of a packed row. */
export function packedOutcome(row: PackedRow): RowOutcome {
  return unchangedLine(row);
}
