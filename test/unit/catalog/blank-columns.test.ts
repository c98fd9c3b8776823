import { describe, expect, it } from 'vitest';
import { createMapper } from '../../../src/catalog/index.js';
import { parseMapping } from '../../../src/catalog/mapping-file.js';
import { records } from './map-rows.js';

/**
 * A CSV header cell left blank is read as `column_<position>` (sources/csv-header.ts): no preset
 * reads it, and the summary names each such column that holds data, with a value from it.
 */
describe('columns with a blank header', () => {
  const SHOPIFY = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'column_5', 'column_6'];

  it('under a preset: one line naming each that holds data by its position, with a value from it', () => {
    const sample = records(SHOPIFY, [
      ['tee', 'Tee', 'T-1', '10', '', ''],
      ['cap', 'Cap', 'C-1', '5', 'cotton\x1b[2J', ''],
    ]);
    const mapper = createMapper({ columns: SHOPIFY, sample });
    expect(mapper.detections).toContain('columns with a blank header, not read: 5 (e.g. "cotton\\x1b[2J")');
    // Column 6 holds nothing in the first rows: nothing is dropped, nothing said.
    expect(mapper.detections.join('\n')).not.toMatch(/\b6 \(e\.g\./);
  });

  it('under the generic preset: sent as fields named by their position, and said so (CSV only)', () => {
    const columns = ['sku', 'name', 'price', 'column_4'];
    const sample = records(columns, [['S-1', 'Scarf', '12', 'wool']]);
    expect(createMapper({ columns, sample }).detections).toContain(
      'columns with a blank header, sent as fields named column_<position>: 4 (e.g. "wool")',
    );
    // A column named so at another position was named in its header; a JSON key never is a blank cell.
    const named = ['sku', 'column_1', 'price'];
    expect(
      createMapper({ columns: named, sample: records(named, [['S-1', 'x', '1']]) }).detections.join('\n'),
    ).not.toContain('blank header');
    expect(createMapper({ columns, sample, openColumns: true }).detections.join('\n')).not.toContain(
      'blank header',
    );
  });

  it('a mapping file that reads one by its position name: not listed; a KEY=value cell is not quoted', () => {
    const columns = ['sku', 'name', 'price', 'column_4', 'column_5'];
    const sample = records(columns, [['S-1', 'Scarf', '12', 'wool', 'API_KEY=sk_live_1']]);
    const mapper = createMapper({
      columns,
      sample,
      mapping: parseMapping(
        'fields:\n  sku: sku\n  name: name\n  price: price\n  material: column_4\n',
        'm.yml',
        'yaml',
      ),
    });
    expect(mapper.detections).toContain('columns with a blank header, not read: 5 (e.g. "…")');
  });
});
