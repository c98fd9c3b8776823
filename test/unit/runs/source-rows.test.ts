import { describe, expect, it } from 'vitest';
import { createMapper, parseMapping } from '../../../src/catalog/index.js';
import type { SourceRecord } from '../../../src/interfaces.js';
import { failedReportColumns, failedReportLine } from '../../../src/runs/failed-report.js';
import { SourceRowCapture } from '../../../src/runs/source-rows.js';
import { iterate } from '../catalog/map-rows.js';

async function drain(records: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of records);
}

const record = (row: number, values: Record<string, string>): SourceRecord => ({
  row,
  line: row + 1,
  values,
});

describe('SourceRowCapture', () => {
  it('keeps a CSV row aligned to the header as written, trailing blanks left off, each taken once', async () => {
    const capture = new SourceRowCapture(['sku', 'Name', 'price'], ['sku', ' Name ', 'price']);
    await drain(
      capture.tap(iterate([record(1, { sku: 'A', Name: 'Apple', price: '' }), record(2, { sku: 'B' })])),
    );

    expect(capture.headerChange()).toEqual(['sku', ' Name ', 'price']);
    expect(capture.headerChange()).toBeNull();
    expect(capture.take(1)).toEqual(['A', 'Apple']);
    expect(capture.take(1)).toBeUndefined();
    expect(capture.take(2)).toEqual(['B']);
  });

  it('grows the header of a JSON source with keys first met later, in the order first seen', async () => {
    const capture = new SourceRowCapture(['sku', 'name']);
    await drain(
      capture.tap(iterate([record(1, { sku: 'A', name: 'Apple' }), record(2, { tags: 'x|y', sku: 'B' })])),
    );

    expect(capture.headerChange()).toEqual(['sku', 'name', 'tags']);
    expect(capture.take(2)).toEqual(['B', '', 'x|y']);
  });

  it('keeps the CSV delimiter of the source (comma for other formats)', () => {
    expect(new SourceRowCapture(['a'], ['a'], ';').delimiter).toBe(';');
    expect(new SourceRowCapture(['a']).delimiter).toBe(',');
  });
});

describe('the --failed-only file', () => {
  it("writes the source's columns then error, leaving out a source column of that name", () => {
    const { kept, names } = failedReportColumns(['sku', ' error ', 'price']);

    expect(names).toEqual(['sku', 'price', 'error']);
    expect(failedReportLine({ row: 3, values: ['A', 'old', '1,5'], error: 'invalid price' }, kept)).toEqual([
      'A',
      '1,5',
      'invalid price',
    ]);
    expect(failedReportLine({ row: 4, values: ['B'], error: '400' }, kept)).toEqual(['B', '', '400']);
  });

  it('is read by every preset without its error column: generic sends no error field', async () => {
    const mapper = createMapper({ columns: ['sku', 'name', 'price', 'error'] });
    const rows = [];
    for await (const row of mapper.map(
      iterate([record(1, { sku: 'A', name: 'Apple', price: '1', error: 'invalid price' })]),
    ))
      rows.push(row);

    expect(mapper.preset).toBe('generic');
    expect(mapper.fields).not.toContain('error');
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { sku: 'A', name: 'Apple', price: 1 } });
    expect(rows[0]).not.toHaveProperty('fields.error');
  });

  it('is read by a mapping file without its error column', async () => {
    const mapping = parseMapping(
      JSON.stringify({
        fields: { sku: { column: 'Ref' }, name: { column: 'Title' }, price: { column: 'Cost' } },
      }),
      'fix.json',
      'json',
    );
    const mapper = createMapper({ columns: ['Ref', 'Title', 'Cost', 'error'], mapping });
    const rows = [];
    for await (const row of mapper.map(
      iterate([record(1, { Ref: 'A', Title: 'Apple', Cost: '2', error: 'invalid price' })]),
    ))
      rows.push(row);

    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { sku: 'A', name: 'Apple', price: 2 } });
    expect(Object.keys((rows[0] as { fields: object }).fields).sort()).toEqual(['name', 'price', 'sku']);
  });

  it('does not change the preset detected from a header', () => {
    const columns = ['Handle', 'Title', 'Variant SKU', 'Variant Price'];

    expect(createMapper({ columns }).preset).toBe('shopify');
    expect(createMapper({ columns: [...columns, 'error'] }).preset).toBe('shopify');
  });
});
