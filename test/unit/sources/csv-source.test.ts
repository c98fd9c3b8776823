import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { openSource, SourceError } from '../../../src/sources/index.js';
import { openAndRead, readCsvText, stdinOf, tempFolder } from './helpers.js';

const folder = tempFolder();
afterAll(() => folder.remove());

describe('a CSV source', () => {
  describe.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
    ['|', 'pipe'],
  ])('delimited by %j', (delimiter, name) => {
    it(`detects the ${name} and reads each cell`, async () => {
      const csv = ['sku,name,price', 'A1,Mug,12.50', 'B2,Plate,3']
        .map((l) => l.replaceAll(',', delimiter))
        .join('\n');
      const { opened, records } = await readCsvText(`${csv}\n`);
      expect(opened.delimiter).toBe(delimiter);
      expect(opened.columns).toEqual(['sku', 'name', 'price']);
      expect(opened.detections).toContain(
        `delimiter ${delimiter === '\t' ? 'tab' : `'${delimiter}'`} (detected)`,
      );
      expect(records).toEqual([
        { row: 1, line: 2, values: { sku: 'A1', name: 'Mug', price: '12.50' } },
        { row: 2, line: 3, values: { sku: 'B2', name: 'Plate', price: '3' } },
      ]);
    });
  });

  it('keeps quoted delimiters, doubled quotes and newlines inside a cell', async () => {
    const { records } = await readCsvText('sku,description\nA1,"Big, ""red""\nmug"\n');
    expect(records[0]?.values.description).toBe('Big, "red"\nmug');
  });

  it('numbers rows by data record and lines by where the record starts, past multi-line cells and blank lines', async () => {
    const csv = 'sku,body\r\nA,"one\r\ntwo\r\nthree"\r\n\r\nB,plain\r\n"C","x\n\ny"\nD,last';
    const { records } = await readCsvText(csv);
    expect(records.map(({ row, line, values }) => [row, line, values.sku])).toEqual([
      [1, 2, 'A'],
      [2, 6, 'B'],
      [3, 7, 'C'],
      [4, 10, 'D'],
    ]);
  });

  it('leaves out the missing columns of a short row', async () => {
    const { records } = await readCsvText('sku,name,price\nA1,Mug\n');
    expect(records).toEqual([{ row: 1, line: 2, values: { sku: 'A1', name: 'Mug' } }]);
  });

  it('keeps a long row and says what is wrong with it', async () => {
    const { records } = await readCsvText('sku,name\nA1,Mug\nB2,Plate,oops,more\n');
    expect(records[1]).toEqual({
      row: 2,
      line: 3,
      values: { sku: 'B2', name: 'Plate' },
      problem: 'row 2 has 4 cells, the header has 2',
    });
  });

  it('reads a header-only file as no records, with its columns', async () => {
    const { opened, records } = await readCsvText('sku;name;price\n');
    expect(opened.columns).toEqual(['sku', 'name', 'price']);
    expect(records).toEqual([]);
  });

  it('names blank header cells by position and refuses repeated names', async () => {
    const { opened } = await readCsvText('sku,,name\n1,2,3\n');
    expect(opened.columns).toEqual(['sku', 'column_2', 'name']);
    await expect(readCsvText('sku,name,SKU,name\n1,2,3,4\n')).rejects.toThrow(
      "standard input: the header repeats column names: 'name' (columns 2 and 4)",
    );
  });

  it('names the line where an unclosed quote starts', async () => {
    const reading = readCsvText('sku,name\nA,ok\n\nB,"never closed\nC,x\n');
    await expect(reading).rejects.toThrow(SourceError);
    await expect(readCsvText('sku,name\nA,ok\n\nB,"never closed\nC,x\n')).rejects.toThrow(
      'standard input: unclosed quote in the record that starts on line 4',
    );
  });

  it('stops at a record over 8 MiB, the mark of an unclosed quote swallowing the file', async () => {
    const csv = `sku,name\nA,ok\nB,"${'x'.repeat(9 * 1024 * 1024)}\nC,x\n`;
    await expect(openAndRead('-', { stdin: stdinOf(csv, 64 * 1024) })).rejects.toThrow(
      'standard input: the record that starts on line 3 is over 8 MiB (--max-record-bytes): probably an unclosed quote',
    );
  });

  it('reads a bare quote inside an unquoted cell as text', async () => {
    const { records } = await readCsvText('name,sku\nRedline 10" Mattress,R1\n');
    expect(records[0]?.values).toEqual({ name: 'Redline 10" Mattress', sku: 'R1' });
  });

  describe('a quote that a quote inside a later field closes', () => {
    it('refuses the source when the quoted part spans lines, naming where the quote opens and the record ends', async () => {
      const csv = 'sku,name,price\nX1,ok,1\nX2,"Bad name,2\nX3,three,3\nX4,"four,4\nX5,five,5\n';
      const reading = readCsvText(csv);
      await expect(reading).rejects.toThrow(SourceError);
      await expect(readCsvText(csv)).rejects.toThrow(
        'standard input: the quote that opens a field on line 3 is not closed: its record would run to line 5, taking in the lines between; close the quote, or double it as "" if it is part of the text',
      );
    });

    it("names the file's own lines far into a CRLF file read in small chunks", async () => {
      const rows = Array.from({ length: 3000 }, (_, i) => `S${i},"multi\r\nline",${i}`).join('\r\n');
      const csv = `sku,name,price\r\n${rows}\r\nX2,"Bad name,2\r\nX3,three,3\r\nX4,"four,4\r\n`;
      await expect(openAndRead('-', { stdin: stdinOf(csv, 1000) })).rejects.toThrow(
        'the quote that opens a field on line 6002 is not closed: its record would run to line 6004',
      );
    });

    it('keeps a cell whose quote closes early on its own line, quotes and all', async () => {
      const { records } = await readCsvText('sku,name\nS1,"Size 10" Mattress",x\nS2,"two\nlines"\n');
      expect(records.map((record) => record.values.name)).toEqual(['"Size 10" Mattress"', 'two\nlines']);
    });

    it('reads a quoted multi-line cell that starts with an escaped quote', async () => {
      const { records } = await readCsvText('sku,name\nM1,"""Best"" mug\nDishwasher safe"\nM2,ok\n');
      expect(records).toEqual([
        { row: 1, line: 2, values: { sku: 'M1', name: '"Best" mug\nDishwasher safe' } },
        { row: 2, line: 4, values: { sku: 'M2', name: 'ok' } },
      ]);
    });
  });
});

describe('a sep= first line (Excel writes and honours it)', () => {
  it('reads the delimiter it names, skips it, and keeps the lines of the file', async () => {
    const { opened, records } = await readCsvText('sep=;\nsku;name;price\nA;"a\nb";1,00\nB;b;2,00\n');
    expect(opened.delimiter).toBe(';');
    expect(opened.detections).toContain("delimiter ';' (from the sep= line)");
    expect(opened.columns).toEqual(['sku', 'name', 'price']);
    expect(records).toEqual([
      { row: 1, line: 3, values: { sku: 'A', name: 'a\nb', price: '1,00' } },
      { row: 2, line: 5, values: { sku: 'B', name: 'b', price: '2,00' } },
    ]);
    await expect(readCsvText('sep=;\n"sku;name\nA;a\n')).rejects.toThrow(
      'standard input: unclosed quote in the record that starts on line 2',
    );
  });

  it('reads it after a byte order mark, with Windows line ends, naming a tab', async () => {
    const path = folder.write('sep-tab.csv', '\uFEFFsep=\t\r\nsku\tname\r\nA\ta, b\r\n');
    const { opened, records } = await openAndRead(path);
    expect(opened.detections).toContain('delimiter tab (from the sep= line)');
    expect(records).toEqual([{ row: 1, line: 3, values: { sku: 'A', name: 'a, b' } }]);
  });

  it('counts the rows after it, not the line itself', async () => {
    const opened = await openSource(folder.write('sep-count.csv', 'sep=,\nsku,name\nA,a\nB,b\n'));
    expect(opened.rowEstimate?.rows).toBe(2);
    await opened.close();
  });

  it('gives way to --delimiter, and is still skipped', async () => {
    const { opened, records } = await readCsvText('sep=;\nsku,name\nA,a;b\n', { delimiter: ',' });
    expect(opened.detections).toContain("delimiter ',' (forced, over the sep= line's ';')");
    expect(opened.columns).toEqual(['sku', 'name']);
    expect(records).toEqual([{ row: 1, line: 3, values: { sku: 'A', name: 'a;b' } }]);
    const same = await readCsvText('sep=;\nsku;name\nA;a\n', { delimiter: ';' });
    expect(same.opened.detections).toContain("delimiter ';' (forced)");
    expect(same.records).toEqual([{ row: 1, line: 3, values: { sku: 'A', name: 'a' } }]);
  });

  it('refuses a delimiter this tool does not read, in one line', async () => {
    await expect(readCsvText('sep=:\nsku:name\nA:a\n')).rejects.toThrow(
      "standard input: line 1 (sep=) names the delimiter ':', which catalog-sync does not read: save the file with , ; tab or | as its delimiter",
    );
  });
});

describe('a source that holds no catalog', () => {
  it.each([
    ['an empty file', ''],
    ['a file of blank lines', '\n  \r\n\t\n'],
    ['a file with only a byte order mark', '\uFEFF'],
  ])('refuses %s as empty', async (_, content) => {
    const path = folder.write('empty.csv', content);
    await expect(openSource(path)).rejects.toThrow(`${path}: source is empty`);
  });

  it('refuses a binary file', async () => {
    const path = folder.write(
      'image.csv',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
    );
    await expect(openSource(path)).rejects.toThrow(/looks like a binary file/);
  });

  it('tells the seller to save an Excel workbook as CSV', async () => {
    const xlsx = Buffer.concat([
      Buffer.from('PK\x03\x04\x14\x00\x06\x00'),
      Buffer.from('[Content_Types].xml'),
      Buffer.from('xl/worksheets/sheet1.xml'),
    ]);
    const path = folder.write('catalog.xlsx', xlsx);
    await expect(openSource(path)).rejects.toThrow(`${path}: looks like an Excel .xlsx file: save it as CSV`);
  });

  it('names a missing file, without a stack', async () => {
    const reading = openSource('/no/such/catalog.csv');
    await expect(reading).rejects.toBeInstanceOf(SourceError);
    await expect(openSource('/no/such/catalog.csv')).rejects.toThrow(
      /^cannot read \/no\/such\/catalog\.csv: no such file$/,
    );
  });
});

describe('encodings', () => {
  const name = 'Crème brûlée – 1 kg';

  it('detects Windows-1252 when the bytes are not UTF-8, and decodes € and – right', async () => {
    const path = folder.write(
      'excel.csv',
      iconv.encode(`sku;name;price\nCB1;${name};4,50 €\n`, 'windows-1252'),
    );
    const { opened, records } = await openAndRead(path);
    expect(opened.encoding).toBe('windows-1252');
    expect(opened.detections).toContain('encoding windows-1252 (detected: not valid UTF-8)');
    expect(records[0]?.values).toEqual({ sku: 'CB1', name, price: '4,50 €' });
  });

  it('drops a UTF-8 byte order mark from the first column name', async () => {
    const path = folder.write(
      'bom.csv',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`sku,name\nCB1,${name}\n`)]),
    );
    const { opened, records } = await openAndRead(path);
    expect(opened.columns).toEqual(['sku', 'name']);
    expect(opened.detections).toContain('encoding utf-8 (detected: byte order mark)');
    expect(records[0]?.values).toEqual({ sku: 'CB1', name });
  });

  it('reads UTF-16LE with a byte order mark', async () => {
    const path = folder.write(
      'utf16.csv',
      iconv.encode(`sku\tname\nCB1\t${name} €\n`, 'utf-16le', { addBOM: true }),
    );
    const { opened, records } = await openAndRead(path);
    expect(opened.encoding).toBe('utf-16le');
    expect(opened.delimiter).toBe('\t');
    expect(records[0]?.values).toEqual({ sku: 'CB1', name: `${name} €` });
  });

  it('decodes a UTF-8 character split between two chunks, after the sniffed prefix', async () => {
    const filler = `${'x'.repeat(70)}\n`.repeat(1000);
    const csv = `sku,name\n${filler.replaceAll('x'.repeat(70), `S,${'é€'.repeat(20)}`)}`;
    const { records } = await openAndRead('-', { stdin: stdinOf(csv, 7) });
    expect(records).toHaveLength(1000);
    expect(records.every((record) => record.values.name === 'é€'.repeat(20))).toBe(true);
  });
});

describe('forced options', () => {
  it('uses the forced delimiter over the detected one', async () => {
    const { opened, records } = await readCsvText('a;b,c\n1;2,3\n', { delimiter: ',' });
    expect(opened.detections).toContain("delimiter ',' (forced)");
    expect(records[0]?.values).toEqual({ 'a;b': '1;2', c: '3' });
  });

  it('uses the forced encoding over the detected one', async () => {
    const { opened, records } = await readCsvText('sku,name\nA,Crème\n', { encoding: 'latin1' });
    expect(opened.encoding).toBe('latin1');
    expect(records[0]?.values.name).toBe('CrÃ¨me');
  });

  it('uses the forced format over the detected one', async () => {
    const { opened, records } = await readCsvText('{"sku":"1"}\n', { format: 'csv' });
    expect(opened.format).toBe('csv');
    expect(records).toEqual([]);
    expect(opened.columns).toEqual(['{"sku":"1"}']);
  });

  it('takes tab from a .tsv extension', async () => {
    const path = folder.write('feed.tsv', 'id\ttitle\n1\tMug, blue\n');
    const { opened, records } = await openAndRead(path);
    expect(opened.detections).toContain('delimiter tab (from the .tsv extension)');
    expect(records[0]?.values).toEqual({ id: '1', title: 'Mug, blue' });
  });

  it.each([
    [{ encoding: 'klingon' }, "unknown encoding 'klingon'"],
    [{ delimiter: ';;' }, 'the delimiter must be one character'],
  ])('refuses %j', async (options, message) => {
    await expect(readCsvText('a\n', options)).rejects.toThrow(message);
  });
});
