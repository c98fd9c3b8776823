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

  it('keeps a nightly block of unchanged rows in a few bytes a row', () => {
    const rows = Array.from({ length: PACKED_BLOCK_ROWS }, (_, i) => ({
      row: i + 1,
      key: `SKU-${String(i + 1).padStart(6, '0')}`,
      productId: String(100_000 + i * 3),
    }));
    expect(packBlock(rows).length / rows.length).toBeLessThan(6);
  });
});
