import { describe, expect, it } from 'vitest';
import { Columns } from '../../../src/catalog/presets/columns.js';
import type { SourceRecord } from '../../../src/interfaces.js';

const record = (row: number, values: Record<string, string>): SourceRecord => ({ row, line: row, values });

/** How presets find their columns: by name, forgiving case, spaces and the `g:` prefix. */
describe('Columns', () => {
  it("of a CSV reads only the header's columns", () => {
    const columns = new Columns(['sku', 'Title']);
    const description = columns.reader('description');
    expect(columns.reader('title')(record(1, { sku: 'A', Title: ' Mug ' }))).toBe('Mug');
    expect(description(record(2, { sku: 'B', Title: 'Cup', description: 'never a column' }))).toBe('');
  });

  it('of JSON or XML (open) finds a column in the first record that brings it, and keeps it', () => {
    const columns = new Columns(['id', 'title'], true);
    const description = columns.reader('description');
    const pause = columns.reader('pause');
    expect(description(record(1, { id: '1', title: 'A' }))).toBe('');
    expect(description(record(2, { id: '2', title: 'B', 'g:description': ' Second ' }))).toBe('Second');
    expect(description(record(3, { id: '3', 'g:description': 'Third' }))).toBe('Third');
    expect(pause(record(3, { id: '3', 'g:description': 'Third' }))).toBe('');
    expect(columns.all).toEqual(['id', 'title', 'g:description']);
    expect(columns.has('description')).toBe(true);
  });
});
