import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeOutcome } from '../../../src/runs/outcome-codec.js';
import {
  PACKED_BLOCK_ROWS,
  type PackedRow,
  packable,
  packBlock,
  packedOutcome,
  unpackBlock,
} from '../../../src/runs/packed-outcomes.js';

const unchanged = (row: number, key: string, productId: string | null, extra: object = {}) =>
  encodeOutcome({ row, key, action: 'unchanged', productId, status: 'ok', error: '', ...extra });

describe('packed unchanged outcomes', () => {
  it('packs only outcomes that read back as the very same line', () => {
    expect(packable(7, unchanged(7, 'SKU-1', '42'))).toEqual({ row: 7, key: 'SKU-1', productId: '42' });
    expect(packable(7, unchanged(7, 'SKU-1', '42', { note: 'reactivated' }))).toBeNull();
    expect(packable(7, unchanged(7, 'SKU-1', null))).toBeNull();
    expect(packable(7, unchanged(7, 'SKU-1', '42', { error: 'odd' }))).toBeNull();
    expect(packable(7, unchanged(7, 'SKU-1', '42', { status: 'failed' }))).toBeNull();
    expect(
      packable(
        7,
        encodeOutcome({ row: 7, key: 'K', action: 'update', productId: '1', status: 'ok', error: '' }),
      ),
    ).toBeNull();
    expect(packable(7, 'not json')).toBeNull();
  });

  it('gives back every row of a block with its key and product id, in row order', () => {
    const productId = fc.oneof(
      fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String),
      fc.string({ minLength: 1 }),
      fc.constantFrom('0', '007', '9007199254740993', '123456789012345'),
    );
    fc.assert(
      fc.property(
        fc.nat({ max: 5000 }),
        fc.uniqueArray(fc.nat({ max: PACKED_BLOCK_ROWS - 1 }), { minLength: 1 }),
        fc.array(fc.tuple(fc.string(), productId), {
          minLength: PACKED_BLOCK_ROWS,
          maxLength: PACKED_BLOCK_ROWS,
        }),
        (block, offsets, values) => {
          const rows: PackedRow[] = offsets.map((offset) => {
            const [key, id] = values[offset] as [string, string];
            return { row: block * PACKED_BLOCK_ROWS + offset + 1, key, productId: id };
          });
          const back = unpackBlock(block, packBlock(rows));
          expect(back).toEqual([...rows].sort((a, b) => a.row - b.row));
          for (const row of back) {
            expect(encodeOutcome(packedOutcome(row))).toBe(unchanged(row.row, row.key, row.productId));
          }
        },
      ),
    );
  });

  it('reads the blocks written before keys were coded (issue 31), with and without delta ids', () => {
    const ranges = [0, 2, 5, 1];
    const keys = ['SKU-1', 'SKU-2', 'SKU-9'];
    const expected = (ids: string[]) =>
      [1, 2, 6].map((row, i) => ({ row: PACKED_BLOCK_ROWS + row, key: keys[i], productId: ids[i] }));
    const delta = deflateRawSync(JSON.stringify([ranges, keys, [40, 2, 5], 1]));
    expect(unpackBlock(1, delta)).toEqual(expected(['40', '42', '47']));
    const spelled = deflateRawSync(JSON.stringify([ranges, keys, ['a', 'b', 'c']]));
    expect(unpackBlock(1, spelled)).toEqual(expected(['a', 'b', 'c']));
  });

  it('keeps a block of an export sorted by SKU in well under a byte a row', () => {
    const rows = Array.from({ length: PACKED_BLOCK_ROWS }, (_, i) => ({
      row: i + 1,
      key: `SKU-${String(i + 1).padStart(6, '0')}`,
      productId: String(100_000 + i * 3),
    })).filter((row) => row.row % 100 !== 0);
    expect(packBlock(rows).length / rows.length).toBeLessThan(0.5);
    expect(unpackBlock(0, packBlock(rows))).toEqual(rows);
  });

  it('keeps keys in no order no larger than spelled out', () => {
    const rows = Array.from({ length: PACKED_BLOCK_ROWS }, (_, i) => ({
      row: i + 1,
      key: `K${((i * 7919) % 10007).toString(36)}x${i % 13}`,
      productId: `p${i}`,
    }));
    const spelled = deflateRawSync(
      JSON.stringify([[0, rows.length], rows.map((r) => r.key), rows.map((r) => r.productId)]),
    );
    expect(packBlock(rows).length).toBeLessThanOrEqual(spelled.length);
    expect(unpackBlock(0, packBlock(rows))).toEqual(rows);
  });

  it('keeps a nightly block of unchanged rows in a few bytes a row', () => {
    const rows = Array.from({ length: PACKED_BLOCK_ROWS }, (_, i) => ({
      row: i + 1,
      key: `SKU-${String(i + 1).padStart(6, '0')}`,
      productId: String(100_000 + i * 3),
    }));
    expect(packBlock(rows).length / rows.length).toBeLessThan(6);
  });
});
