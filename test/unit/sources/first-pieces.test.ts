import { describe, expect, it } from 'vitest';
import { firstInPieces } from '../../../src/sources/csv-records.js';
import { readCsvText } from './helpers.js';

async function piecesOf(chunks: string[], first: number, piece: number): Promise<string[]> {
  async function* text() {
    yield* chunks;
  }
  const pieces: string[] = [];
  for await (const part of firstInPieces(text(), first, piece)) pieces.push(part);
  return pieces;
}

describe("a CSV's first text, in pieces for the parser", () => {
  it('cuts the first characters in pieces and passes the rest as it came, nothing lost or moved', async () => {
    const chunks = ['a'.repeat(20_000), 'b'.repeat(5_000), 'c'.repeat(9_000)];
    const pieces = await piecesOf(chunks, 16_000, 4_000);
    expect(pieces.map((part) => part.length)).toEqual([4_000, 4_000, 4_000, 4_000, 4_000, 5_000, 9_000]);
    expect(pieces.join('')).toBe(chunks.join(''));
  });

  it('never cuts between the two halves of a surrogate pair (each piece is encoded alone)', async () => {
    // A strawberry (two UTF-16 units) across every would-be cut.
    const text = `${'x'.repeat(2_999)}🍓${'y'.repeat(2_998)}🍓${'z'.repeat(4_000)}`;
    const pieces = await piecesOf([text], 9_000, 3_000);
    for (const part of pieces) {
      expect(part.charCodeAt(part.length - 1) >= 0xd800 && part.charCodeAt(part.length - 1) <= 0xdbff).toBe(
        false,
      );
    }
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join('')).toBe(text);
  });

  it('reads a CSV whose records and multi-byte cells straddle the pieces as one read whole', async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => [
      `SKU-${i}`,
      `Fraise 🍓 n°${i}, "extra"`,
      `${i}.50`,
    ]);
    const csv = `sku,name,price\n${rows.map(([sku, name, price]) => `${sku},"${name?.replace(/"/g, '""')}",${price}`).join('\n')}\n`;
    expect(csv.length).toBeGreaterThan(128 * 1024);
    const { records } = await readCsvText(csv);
    expect(records).toHaveLength(3_000);
    expect(records.map((record) => [record.values.sku, record.values.name, record.values.price])).toEqual(
      rows,
    );
  });
});
