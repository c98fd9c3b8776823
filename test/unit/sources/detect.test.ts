import { describe, expect, it } from 'vitest';
import { sepLineDelimiter } from '../../../src/sources/csv-delimiter.js';
import { columnNames, recordFromCells } from '../../../src/sources/csv-header.js';
import { detectDelimiter, scanRecords } from '../../../src/sources/detect-delimiter.js';
import { binaryReason, detectEncoding } from '../../../src/sources/detect-encoding.js';
import { detectFormat, extensionOf } from '../../../src/sources/detect-format.js';
import { flattenItem } from '../../../src/sources/flatten.js';
import { redactUrl } from '../../../src/sources/url-source.js';

const bytes = (...values: number[]) => Uint8Array.from(values);
const text = (value: string) => new TextEncoder().encode(value);

describe('detectEncoding', () => {
  it.each([
    ['a UTF-8 byte order mark', bytes(0xef, 0xbb, 0xbf, 0x61), true, 'utf-8', 'byte order mark'],
    ['a UTF-16LE byte order mark', bytes(0xff, 0xfe, 0x61, 0x00), true, 'utf-16le', 'byte order mark'],
    ['a UTF-16BE byte order mark', bytes(0xfe, 0xff, 0x00, 0x61), true, 'utf-16be', 'byte order mark'],
    ['valid UTF-8', text('Crème brûlée – 1 kg €'), true, 'utf-8', 'valid UTF-8'],
    [
      'a Windows-1252 é and €',
      bytes(0x43, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0x80),
      true,
      'windows-1252',
      'not valid UTF-8',
    ],
    [
      'UTF-16LE text without a BOM',
      text('s\0k\0u\0,\0n\0'),
      true,
      'utf-16le',
      'NUL byte pattern, no byte order mark',
    ],
  ])('reads %s as %s', (_, prefix, complete, encoding, reason) => {
    expect(detectEncoding(prefix, complete)).toEqual({ encoding, reason });
  });

  it('accepts a multi-byte character cut at the end of a partial prefix', () => {
    const cut = text('name,€').subarray(0, 6);
    expect(detectEncoding(cut, false).encoding).toBe('utf-8');
    expect(detectEncoding(cut, true).encoding).toBe('windows-1252');
  });
});

describe('binaryReason', () => {
  it.each([
    [
      'an xlsx',
      Buffer.concat([Buffer.from('PK\x03\x04\x14\x00'), Buffer.from('[Content_Types].xml xl/workbook.xml')]),
      /Excel \.xlsx file: save it as CSV/,
    ],
    ['another ZIP', Buffer.from('PK\x03\x04\x14\x00data.csv'), /ZIP archive/],
    ['a PDF', Buffer.from('%PDF-1.7\n'), /PDF/],
    ['an old .xls', bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1), /Excel \.xls file/],
    ['a gzip', bytes(0x1f, 0x8b, 0x08), /gzip/],
  ])('refuses %s', (_, prefix, message) => {
    expect(binaryReason(prefix)).toMatch(message);
  });

  it('lets text through', () => {
    expect(binaryReason(text('sku,name\n'))).toBeUndefined();
  });
});

describe('detectFormat', () => {
  it.each([
    ['sku,name\n1,a\n', '', 'csv', 'detected'],
    ['  [{"sku":"1"}]', '', 'json', 'detected'],
    ['{"products":[{"sku":"1"}]}', 'json', 'json', 'detected'],
    ['{"sku":"1"}\n{"sku":"2"}\n', '', 'ndjson', 'detected'],
    ['{"sku":"1"}\n', 'jsonl', 'ndjson', 'detected'],
    ['{"sku":"1"}\n', '', 'json', 'detected'],
    ['<?xml version="1.0"?><rss/>', 'xml', 'xml', 'detected'],
    ['[{"sku":"1"}]', 'csv', 'json', 'detected from the content, not the extension'],
  ])('reads %j (extension %j) as %s', (sample, extension, format, reason) => {
    expect(detectFormat(sample, extension)).toEqual({ format, reason });
  });

  it.each([
    ['catalog.CSV', 'csv'],
    ['/feeds/google.xml', 'xml'],
    ['dir.v2/README', ''],
    ['.hidden', ''],
  ])('takes the extension of %s as %j', (path, extension) => {
    expect(extensionOf(path)).toBe(extension);
  });
});

describe('detectDelimiter', () => {
  it.each([
    ['commas', 'sku,name,price\n1,a,2\n', ','],
    ['semicolons with decimal commas in cells', 'sku;price;name\n1;59,99;a\n2;0,79;b,c\n', ';'],
    ['tabs', 'sku\tname\n1\ta, b\n', '\t'],
    ['pipes', 'sku|name|price\n1|a|2\n', '|'],
    ['commas inside quotes of a semicolon file', 'a;b\n"x,y,z";2\n', ';'],
    ['a quoted newline', 'a,b\n"line 1\nline;2",3\n', ','],
    ['a bare quote in an unquoted field', 'name,sku\nRedline 10" Mattress,R1\nPillow,P1\n', ','],
    ['a single column', 'sku\n1\n2\n', ','],
    ['the delimiter whose quotes open and close fields', '"a"|"b;c"\n"d"|"e;f"\n', '|'],
  ])('finds %s', (_, sample, delimiter) => {
    expect(detectDelimiter(sample, true)).toBe(delimiter);
  });

  it('leaves out the last line of a cut prefix', () => {
    expect(scanRecords('a;b\n1;2\n3;', ';', false).counts).toEqual([1, 1]);
    expect(scanRecords('a;b\n1;2\n3;', ';', true).counts).toEqual([1, 1, 1]);
  });
});

describe('sepLineDelimiter', () => {
  it.each([
    ['sep=;\nsku;name\n', ';'],
    ['\uFEFFsep=|\r\nsku|name\r\n', '|'],
    ['sep=\t\nsku\tname\n', '\t'],
    ['sep=,', ','],
    ['sep=;;\nsku;name\n', undefined],
    ['sep=\nsku\n', undefined],
    ['sep="\nsku\n', undefined],
    [' sep=;\nsku\n', undefined],
    ['SEP=;x\n', undefined],
    ['sku;sep=;\n', undefined],
  ])('reads %j as %j', (sample, delimiter) => {
    expect(sepLineDelimiter(sample)).toBe(delimiter);
  });
});

describe('columnNames', () => {
  it('trims names, drops a BOM and names blank columns by position', () => {
    expect(columnNames(['\uFEFFsku', ' Name ', '', 'ID / shop '])).toEqual({
      names: ['sku', 'Name', 'column_3', 'ID / shop'],
    });
  });

  it('refuses repeated names, naming them and their columns', () => {
    expect(columnNames(['sku', 'price', 'sku '])).toEqual({
      error: "the header repeats column names: 'sku' (columns 1 and 3)",
    });
  });
});

describe('recordFromCells', () => {
  const columns = ['sku', 'name', 'price'];

  it.each([
    ['as many cells as columns', ['1', 'a', '2'], { sku: '1', name: 'a', price: '2' }, undefined],
    ['fewer cells: missing columns absent', ['1', 'a'], { sku: '1', name: 'a' }, undefined],
    [
      'more cells',
      ['1', 'a', '2', 'x'],
      { sku: '1', name: 'a', price: '2' },
      'row 12 has 4 cells, the header has 3',
    ],
    [
      'only empty extra cells (a trailing delimiter)',
      ['1', 'a', '2', ''],
      { sku: '1', name: 'a', price: '2' },
      undefined,
    ],
  ])('with %s', (_, cells, values, problem) => {
    const record = recordFromCells(columns, cells, 12, 14);
    expect(record).toEqual({ row: 12, line: 14, values, ...(problem ? { problem } : {}) });
  });
});

describe('flattenItem', () => {
  it.each([
    ['scalars as text', { sku: 'A', price: 12.5, active: true }, { sku: 'A', price: '12.5', active: 'true' }],
    ['null as absent', { sku: 'A', sale: null }, { sku: 'A' }],
    [
      'a list of scalars as a list, and joined with | for a text field',
      { images: ['a.jpg', 'b.jpg'], tags: ['x, y'] },
      { images: 'a.jpg|b.jpg', tags: 'x, y' },
      { images: ['a.jpg', 'b.jpg'], tags: ['x, y'] },
    ],
    ['an empty list as an empty value', { images: [] }, { images: '' }, { images: [] }],
    [
      'nested objects as dotted keys',
      { price: { amount: '9.99', currency: 'EUR' } },
      { 'price.amount': '9.99', 'price.currency': 'EUR' },
    ],
    [
      'objects inside a list',
      { variants: [{ sku: 'A1' }, { sku: 'A2', color: 'red' }] },
      { 'variants.sku': 'A1|A2', 'variants.color': 'red' },
      { 'variants.sku': ['A1', 'A2'], 'variants.color': ['red'] },
    ],
  ])('turns %s into strings', (_, item, values, lists?: Record<string, string[]>) => {
    expect(flattenItem(item)).toEqual(lists ? { values, lists } : { values });
  });
});

describe('redactUrl', () => {
  it.each([
    ['https://user:secret@feeds.example.com/a/feed.xml?token=abc#x', 'https://feeds.example.com/a/feed.xml'],
    ['http://127.0.0.1:8080/feed.csv', 'http://127.0.0.1:8080/feed.csv'],
  ])('shows %s as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});
