import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packOtherLines, unpackOtherLines } from '../../../src/runs/packed-other-outcomes.js';
import { PACKED_BLOCK_ROWS } from '../../../src/runs/packed-outcomes.js';

describe("a block's outcomes other than plain unchanged ones, packed", () => {
  it('gives back each row with its line exactly as stored', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 5000 }),
        fc.uniqueArray(fc.nat({ max: PACKED_BLOCK_ROWS - 1 }), { maxLength: 50 }),
        fc.array(fc.string({ unit: 'binary' }), { minLength: 50, maxLength: 50 }),
        (block, offsets, texts) => {
          const lines = new Map(
            offsets.map((offset, i) => [block * PACKED_BLOCK_ROWS + offset + 1, texts[i] as string]),
          );
          expect(unpackOtherLines(block, packOtherLines(block, lines))).toEqual(lines);
        },
      ),
    );
  });

  it('leaves out what a forged block holds outside its rows', () => {
    const forged = deflateRawSync(
      JSON.stringify([
        [0, -1, PACKED_BLOCK_ROWS, 1.5, 3],
        ['a', 'b', 'c', 'd', 7],
      ]),
    );
    expect(unpackOtherLines(2, forged)).toEqual(new Map([[2 * PACKED_BLOCK_ROWS + 1, 'a']]));
  });
});
