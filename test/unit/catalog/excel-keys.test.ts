import { describe, expect, it } from 'vitest';
import type { SourceRecord } from '../../../src/interfaces.js';
import { mapRecords } from './map-rows.js';

// A CSV cell of Excel text (`="00123"`) is read as its text; an earlier version read it as written
// and made the product under that SKU. A row keyed by such a cell carries the key as written
// (ProductUpsert.excelKey), so that the sync finds that product (sync/excel-text-keys.ts).
const COLUMNS = ['sku', 'name', 'price', 'ean'];

function record(values: Record<string, string>, excelText?: SourceRecord['excelText']): SourceRecord {
  return { row: 1, line: 2, values, ...(excelText ? { excelText } : {}) };
}

describe('a row keyed by a cell of Excel text', () => {
  it('carries its key as an earlier version read it', async () => {
    const [row] = await mapRecords(COLUMNS, [
      record({ sku: '00123', name: 'Mug', price: '1' }, [{ text: '00123', cell: '="00123"' }]),
    ]);
    expect(row).toMatchObject({ kind: 'upsert', key: '00123', excelKey: '="00123"' });
  });

  it('carries the cell as written where its text was trimmed, and a quote doubled', async () => {
    const rows = await mapRecords(COLUMNS, [
      record({ sku: ' 00123 ', name: 'Mug', price: '1' }, [{ text: ' 00123 ', cell: '=" 00123 "' }]),
      { ...record({ sku: 'A"B', name: 'Cup', price: '1' }, [{ text: 'A"B', cell: '="A""B"' }]), row: 2 },
    ]);
    expect(rows).toMatchObject([
      { key: '00123', excelKey: '=" 00123 "' },
      { key: 'A"B', excelKey: '="A""B"' },
    ]);
  });

  it('carries nothing when only another cell was Excel text, or none was', async () => {
    const rows = await mapRecords(COLUMNS, [
      record({ sku: 'SKU-1', name: 'Mug', price: '1', ean: '400' }, [{ text: '400', cell: '="400"' }]),
      { ...record({ sku: 'SKU-2', name: 'Cup', price: '1' }), row: 2 },
    ]);
    expect(rows.map((row) => 'excelKey' in row)).toEqual([false, false]);
  });
});

describe('a row not sent, keyed by a cell of Excel text', () => {
  const bad = () => record({ sku: '00123', name: 'Mug', price: 'x' }, [{ text: '00123', cell: '="00123"' }]);

  it('keeps its key as written with --missing: the source still holds the product made under it', async () => {
    const [row] = await mapRecords(COLUMNS, [bad()], { missing: true });
    expect(row).toMatchObject({ kind: 'invalid', key: '00123', excelKey: '="00123"' });
  });

  it('keeps nothing of it without --missing', async () => {
    const [row] = await mapRecords(COLUMNS, [bad()]);
    expect(row).toMatchObject({ kind: 'invalid', key: '00123' });
    expect('excelKey' in (row as object)).toBe(false);
  });
});
