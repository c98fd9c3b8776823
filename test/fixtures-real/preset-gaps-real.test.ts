import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REAL_FIXTURES_DIR } from '../support/real-fixtures-dir.js';
import { mapRealFile } from './map-real-file.js';

/** What the presets made of the real exports where a tester found them wrong (blank headers, price 0 …). */
const PRESTASHOP_16 = 'prestashop/Exemples-Import CSV - 1.6-Products-US-Mono.csv';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'preset-gaps-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A copy of a real export with its text edited, in the test's folder. */
async function editedCopy(file: string, name: string, edit: (text: string) => string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, edit(await readFile(join(REAL_FIXTURES_DIR, file), 'utf8')));
  return path;
}

describe('prestashop 1.6 sample: the columns its header leaves blank', () => {
  it('the blank-headed Visibility column is read by its place: iPod touch (none) is hidden, as in the 1.7 file', async () => {
    const file = await mapRealFile(PRESTASHOP_16);
    expect(file.byKey('RP-demo_5').fields.status).toBe('hidden');
    expect(file.byKey('RP-demo_5').notes).toEqual(['sent with status hidden: PrestaShop Visibility none']);
    // both, catalog, search: shown in the shop, sold.
    for (const key of ['RP-demo_1', 'RP-demo_2', 'RP-demo_3', 'RP-demo_4'])
      expect(file.byKey(key).fields.status).toBe('active');
    expect(file.detections).toContain(
      'columns with a blank header, named by their place: 20 Width, 21 Height, 22 Depth, 25 Minimal quantity, 26 Visibility, 27 Additional shipping cost, 28 Unit for the unit price, 29 Unit price',
    );
    expect(file.detections.join('\n')).toMatch(
      /preset prestashop \(detected from columns .*: blank header cells named by their place in PrestaShop’s field list\)/,
    );
  });

  it('read by a mapping file that does not name them, the blank columns holding data are listed, not dropped without a word', async () => {
    const file = await mapRealFile(PRESTASHOP_16, { mappingFile: 'prestashop.yml' });
    expect(file.detections).toContain(
      'columns with a blank header, not read: 20 (e.g. "0.6"), 21 (e.g. "0.2"), 22 (e.g. "0.4"), 25 (e.g. "1"), 26 (e.g. "both"), 27 (e.g. "20")',
    );
  });

  it('a blank column whose place is not certain stays unnamed, and is listed as not read', async () => {
    // Only the Visibility column left between Quantity and Short description, where the list has five.
    const path = await editedCopy(PRESTASHOP_16, 'one-blank.csv', (text) =>
      text
        .split('\r\n')
        .map((line) => {
          const cells = line.split(';');
          cells.splice(26, 3);
          cells.splice(24, 1);
          return cells.join(';');
        })
        .join('\r\n'),
    );
    const file = await mapRealFile(path);
    expect(file.byKey('RP-demo_5').fields.status).toBe('active');
    expect(file.detections).toContain(
      'columns with a blank header, named by their place: 20 Width, 21 Height, 22 Depth',
    );
    expect(file.detections).toContain('columns with a blank header, not read: 25 (e.g. "both")');
  });
});
