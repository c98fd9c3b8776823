import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';
import { mapRealFile } from './map-real-file.js';

/**
 * An Etsy export without SKUs keys each listing by its title's slug: two titles that differ only in
 * punctuation make one key, and the second row is invalid every night. Its message spoke of a
 * "duplicate sku" the seller never gave; it says what the key was made of and what to do.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'derived-keys-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A file with the real Etsy export's header and a row per title, each with no SKU. */
async function etsyFile(name: string, titles: string[]): Promise<string> {
  const real = await readFile(join(REAL_FIXTURES_DIR, 'etsy/EtsyListingsDownload.csv'), 'utf8');
  const header = real.slice(0, real.indexOf('\n'));
  const columns = header.split(',').map((cell) => cell.replaceAll('"', ''));
  const rows = titles.map((title) => {
    const cells: Record<string, string> = {
      TITLE: title,
      DESCRIPTION: 'A squishy toy.',
      PRICE: '8.95',
      CURRENCY_CODE: 'AUD',
      QUANTITY: '3',
    };
    return columns.map((column) => `"${(cells[column] ?? '').replaceAll('"', '""')}"`).join(',');
  });
  const path = join(dir, name);
  await writeFile(path, `${header}\n${rows.join('\n')}\n`);
  return path;
}

describe('etsy without SKUs: two titles that make one key', () => {
  it.each([
    ['punctuation', 'Latte Paw | Squishy', 'Latte Paw - Squishy'],
    ['case and punctuation', 'Latte Paw | Squishy', 'latte paw squishy'],
  ])(
    'differing in %s: the second row says its key was made of the title, and what to do',
    async (_, first, second) => {
      const file = await mapRealFile(await etsyFile('titles.csv', [first, second]));

      expect(file.detections.join('\n')).toContain('preset etsy');
      expect(file.rows[0]).toMatchObject({ kind: 'upsert', key: 'etsy:latte-paw-squishy' });
      expect(file.rows[1]).toEqual({
        kind: 'invalid',
        row: 2,
        line: 3,
        key: 'etsy:latte-paw-squishy',
        reason: `its key etsy:latte-paw-squishy, made from the title "${second}", is row 1's too (titles that differ only in case or punctuation make one key): give the listings a SKU, or titles that differ in words`,
      });
    },
  );

  it('titles that differ in words keep their own keys', async () => {
    const file = await mapRealFile(await etsyFile('words.csv', ['Latte Paw Squishy', 'Mocha Paw Squishy']));
    expect(file.rows.map((row) => [row.kind, row.key])).toEqual([
      ['upsert', 'etsy:latte-paw-squishy'],
      ['upsert', 'etsy:mocha-paw-squishy'],
    ]);
  });
});
