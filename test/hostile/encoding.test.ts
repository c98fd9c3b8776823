import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { createMapper, type MapperOptions, parseMapping } from '../../src/catalog/index.js';
import type { MappedRow } from '../../src/interfaces.js';
import { detectEncoding } from '../../src/sources/detect-encoding.js';
import { parseCsv } from '../integration/support/catalog.js';
import { MAIN_SELLER, usePipeline } from '../integration/support/pipeline.js';
import { readBytes, tempFolder } from './support.js';

/**
 * Issue 10, item 6: a UTF-8 file with one Windows-1252 byte in its first 64 KiB was decoded whole
 * as Windows-1252 (every row written in mojibake, exit 0); past 64 KiB the bad byte became U+FFFD
 * and was sent. Now the file is UTF-8 when its multi-byte sequences are, and the row holding bytes
 * that are not is invalid, naming the byte; no row is sent with U+FFFD or mojibake.
 */
const utf8 = (text: string) => Buffer.from(text, 'utf8');
const REASON = (byte: number) => `bytes not UTF-8 at byte ${byte}: re-export as UTF-8 or pass --encoding`;

/** A 3,000-row UTF-8 catalog whose row `badRow` has one Windows-1252 `é` (0xE9) in its name. */
function catalogWithOneBadByte(badRow: number): { bytes: Buffer; badByte: number } {
  const parts: Buffer[] = [utf8('sku,name,price\n')];
  let badByte = 0;
  for (let row = 1; row <= 3000; row++) {
    if (row === badRow) {
      const before = utf8(`P${row},Produit ${row} — `);
      badByte = parts.reduce((sum, part) => sum + part.length, 0) + before.length + 1;
      parts.push(before, Buffer.from([0xe9]), utf8('dition,9.5\n'));
    } else {
      parts.push(utf8(`P${row},Produit ${row} — édition,9.5\n`));
    }
  }
  return { bytes: Buffer.concat(parts), badByte };
}

type Read = Awaited<ReturnType<typeof readBytes>>;
function records(result: Read) {
  if ('error' in result) throw result.error;
  return result.records;
}

describe('one stray Windows-1252 byte in a UTF-8 file', () => {
  it.each([
    ['in the first 64 KiB', 100],
    ['far past the first 64 KiB', 2900],
  ])(
    '%s: the file stays UTF-8, that row is invalid naming the byte, no other row changes',
    async (_, badRow) => {
      const { bytes, badByte } = catalogWithOneBadByte(badRow);
      expect(badByte > 64 * 1024).toBe(badRow === 2900);

      const result = await readBytes(bytes);
      const read = records(result);

      expect('opened' in result && result.opened.encoding).toBe('utf-8');
      expect(read).toHaveLength(3000);
      expect(read[badRow - 1]).toMatchObject({ row: badRow, problem: REASON(badByte) });
      const others = read.filter((record) => record.row !== badRow);
      expect(others.every((record) => record.problem === undefined)).toBe(true);
      expect(others.every((record) => record.values.name === `Produit ${record.row} — édition`)).toBe(true);
      expect(
        read.some((record) =>
          Object.values(record.values).some(
            (value) => /\uFFFD|Ã|â€/.test(value) && record.problem === undefined,
          ),
        ),
      ).toBe(false);
    },
  );

  it('names the same byte whatever the chunks the bytes come in', async () => {
    const { bytes, badByte } = catalogWithOneBadByte(7);
    for (const chunk of [1, 2, 3, 7, 4096]) {
      const read = records(await readBytes(bytes.subarray(0, 1000), {}, chunk));
      expect(read[6]?.problem).toBe(REASON(badByte));
      expect(read[5]?.values.name).toBe('Produit 6 — édition');
    }
  });

  it('a multi-byte character cut by the end of the file is bad bytes too', async () => {
    const bytes = Buffer.concat([utf8('sku,name\nA,é\nB,x'), utf8('€').subarray(0, 2)]);
    const read = records(await readBytes(bytes));
    expect(read[1]?.problem).toBe(REASON(bytes.length - 1));
  });

  it('a bad byte in the header stops the read with one line', async () => {
    const bytes = Buffer.concat([utf8('sku,n'), Buffer.from([0xe9]), utf8('me\nA,é\n')]);
    const result = await readBytes(bytes);
    expect('error' in result && result.error.message).toBe(`standard input: the header holds ${REASON(6)}`);
  });

  it('keeps a U+FFFD that the file itself holds (valid UTF-8): it is text', async () => {
    const read = records(await readBytes(utf8('sku,name\nA,caf\uFFFD — é\n')));
    expect(read[0]).toEqual({ row: 1, line: 2, values: { sku: 'A', name: 'caf\uFFFD — é' } });
  });

  it('with --encoding utf-8 forced, a Windows-1252 file gives invalid rows, never mojibake', async () => {
    const bytes = iconv.encode('sku,name\nA,plain\nB,Crème\n', 'windows-1252');
    const read = records(await readBytes(bytes, { encoding: 'utf-8' }));
    expect(read[0]?.problem).toBeUndefined();
    expect(read[1]?.problem).toBe(REASON(bytes.indexOf(0xe8) + 1));
  });
});

describe('every format', () => {
  const bad = (before: string, after: string) =>
    Buffer.concat([utf8(before), Buffer.from([0xe9]), utf8(after)]);

  it('JSON: the item with the bad byte is invalid', async () => {
    const bytes = bad('[{"sku":"A","name":"é"},{"sku":"B","name":"caf', '"},{"sku":"C"}]');
    const read = records(await readBytes(bytes));
    expect(read.map((record) => record.problem)).toEqual([
      undefined,
      REASON(bytes.indexOf(0xe9) + 1),
      undefined,
    ]);
  });

  it('JSON: a bad byte in a key is the same', async () => {
    const bytes = bad('[{"sku":"A","name":"é","nam', '":"x"}]');
    expect(records(await readBytes(bytes))[0]?.problem).toBe(REASON(bytes.indexOf(0xe9) + 1));
  });

  it('NDJSON: the line with the bad byte is invalid, even where it breaks the JSON', async () => {
    const bytes = bad('{"sku":"A","name":"é"}\n{"sku":"B",', '}\n{"sku":"C"}\n');
    const read = records(await readBytes(bytes, { format: 'ndjson' }));
    expect(read.map((record) => record.problem)).toEqual([
      undefined,
      REASON(bytes.indexOf(0xe9) + 1),
      undefined,
    ]);
  });

  it('XML: the item with the bad byte is invalid', async () => {
    const bytes = bad(
      '<rss><channel><item><sku>A</sku><title>é</title></item><item><sku>B</sku><title>caf',
      '</title></item></channel></rss>',
    );
    const read = records(await readBytes(bytes));
    expect(read.map((record) => record.problem)).toEqual([undefined, REASON(bytes.indexOf(0xe9) + 1)]);
  });

  it('XML: a bad byte in a tag name stops the read, and the line says why', async () => {
    const bytes = Buffer.concat([
      bad('<rss><channel><item><sku>é</sku><t', 'tle>x</t'),
      Buffer.from([0xe9]),
      utf8('tle></item></channel></rss>'),
    ]);
    const result = await readBytes(bytes);
    expect('error' in result && result.error.message).toMatch(
      new RegExp(
        `^standard input: not valid XML at line 1: .*\\(the source holds ${REASON(bytes.indexOf(0xe9) + 1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\)$`,
      ),
    );
    expect('error' in result && result.error.message).not.toMatch(/[\uFDD0-\uFDEF]/);
  });
});

describe('the key of a row with bad bytes: reported where its own cell reads whole', () => {
  // Each file has an `è` in UTF-8 too: it is read as UTF-8, with one stray Windows-1252 `é`.
  const bad = (before: string, after: string) =>
    Buffer.concat([utf8(before), Buffer.from([0xe9]), utf8(after)]);

  /** The rows a bad-byte file maps to, as `run` reads and maps it. */
  async function mapped(bytes: Buffer, options: Partial<MapperOptions> = {}) {
    const result = await readBytes(bytes);
    if ('error' in result) throw result.error;
    const { opened, records } = result;
    const mapper = createMapper({ columns: opened.columns, ...options });
    const rows: MappedRow[] = [];
    async function* all() {
      yield* records;
    }
    for await (const row of mapper.map(all())) rows.push(row);
    return rows;
  }

  it('bytes in its description: the row is invalid under its SKU', async () => {
    const bytes = bad('sku,name,description,price\nA-1,Crème,plain,5\nA-2,Cup,caf', ' au lait,6\n');
    const rows = await mapped(bytes);
    expect(rows[1]).toEqual({
      kind: 'invalid',
      row: 2,
      line: 3,
      key: 'A-2',
      reason: REASON(bytes.indexOf(0xe9) + 1),
    });
  });

  it('bytes in the SKU cell itself: no key (the report never shows a key the file does not hold)', async () => {
    const bytes = bad('sku,name,price\nA-1,Crème,5\nA-', ',Cup,6\n');
    const rows = await mapped(bytes);
    expect(rows[1]).toEqual({ kind: 'invalid', row: 2, line: 3, reason: REASON(bytes.indexOf(0xe9) + 1) });
  });

  it("a preset's SKU column (Shopify's Variant SKU), and a mapping file's key column", async () => {
    const shopify = bad(
      'Handle,Title,Body (HTML),Variant SKU,Variant Price\nmug,Mug,<p>crème caf',
      '</p>,MUG-1,5\ncup,Cup,,CUP-1,6\n',
    );
    expect((await mapped(shopify)).map((row) => [row.kind, row.key])).toEqual([
      ['invalid', 'MUG-1'],
      ['upsert', 'CUP-1'],
    ]);
    const erp = bad('Artikelnummer,Bezeichnung,Preis\nART-1,Crème caf', ',5\n');
    const mapping = parseMapping(
      'fields:\n  sku: Artikelnummer\n  name: Bezeichnung\n  price: Preis\n',
      'erp.yml',
      'yaml',
    );
    const rows = await mapped(erp, { mapping });
    expect(rows.map((row) => [row.kind, row.key])).toEqual([['invalid', 'ART-1']]);
  });

  it('a row with more cells than the header keeps no key: its cells may not be in their columns', async () => {
    const rows = await mapped(utf8('sku,name,price\nA-1,Crème,5\nA-2,Cup, large,6\n'));
    expect(rows[1]).toEqual({
      kind: 'invalid',
      row: 2,
      line: 3,
      reason: 'row 2 has 4 cells, the header has 3',
    });
  });
});

describe('Windows-1252 files', () => {
  it('are still read as Windows-1252 when no byte is in a UTF-8 sequence', async () => {
    const bytes = iconv.encode('sku;name;price\nCB1;Crème brûlée – 1 kg;4,50 €\n', 'windows-1252');
    const result = await readBytes(bytes);
    expect('opened' in result && result.opened.encoding).toBe('windows-1252');
    expect(records(result)[0]?.values.name).toBe('Crème brûlée – 1 kg');
  });

  it('a byte Windows-1252 leaves undefined (0x81) makes its row invalid, not U+FFFD', async () => {
    const bytes = Buffer.concat([
      iconv.encode('sku;name\nA;Crème\nB;x', 'windows-1252'),
      Buffer.from([0x81]),
      utf8('y\n'),
    ]);
    const read = records(await readBytes(bytes));
    expect(read[0]?.values.name).toBe('Crème');
    expect(read[1]?.problem).toBe(
      `bytes not Windows-1252 at byte ${bytes.indexOf(0x81) + 1}: re-export as UTF-8 or pass --encoding`,
    );
  });

  it('a UTF-16 character among those marks are made of (U+FDD0…U+FDEF) makes its row invalid, naming its byte', async () => {
    // One flipped byte turns `é` (U+00E9) into U+FDE9, which UTF-16 carries like any other character.
    const bytes = iconv.encode('\uFEFFsku,name\n"A","Crème"\n"B","x\uFDE9y"\n', 'utf-16le');
    for (const encoding of [undefined, 'utf-16le']) {
      const read = records(await readBytes(bytes, encoding ? { encoding } : {}));
      expect(read[0]).toMatchObject({ values: { sku: 'A', name: 'Crème' } });
      expect(read[0]?.problem).toBeUndefined();
      // BOM 2 bytes + `sku,name\n"A","Crème"\n"B","x` (27 code units), then the character.
      expect(read[1]?.problem).toBe(
        `bytes not utf-16le at byte ${2 + 27 * 2 + 1}: re-export as UTF-8 or pass --encoding`,
      );
    }
  });
});

describe('detectEncoding', () => {
  it.each([
    [
      'UTF-8 with one stray Windows-1252 byte',
      Buffer.concat([utf8('a — é ü '), Buffer.from([0xe9, 0x20])]),
      'utf-8',
      'UTF-8, but 1 byte is not: those rows are invalid',
    ],
    [
      'Windows-1252 only',
      Buffer.from([0x43, 0x72, 0xe8, 0x6d, 0x65, 0x20, 0x80]),
      'windows-1252',
      'not valid UTF-8',
    ],
    ['ASCII', utf8('sku,name\nA,b\n'), 'utf-8', 'valid UTF-8'],
  ])('%s → %s', (_, prefix, encoding, reason) => {
    expect(detectEncoding(prefix, true)).toEqual({ encoding, reason });
  });
});

describe('through the CLI', () => {
  const pipeline = usePipeline();
  const folder = tempFolder();
  afterAll(() => folder.remove());

  it('writes the 2,999 good rows in the right characters and reports the bad one (exit 1)', async () => {
    const { bytes, badByte } = catalogWithOneBadByte(100);
    const source = folder.write('mixed.csv', bytes);
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', source, '--report', report]);

    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'encoding utf-8 (detected: UTF-8, but 1 byte is not: those rows are invalid)',
    );
    const products = pipeline.products(MAIN_SELLER);
    expect(products).toHaveLength(2999);
    expect(products.every((product) => /^Produit \d+ — édition$/.test(String(product.name)))).toBe(true);
    expect(parseCsv(await pipeline.readText('report.csv'))[99]).toMatchObject({
      row: '100',
      key: 'P100',
      action: 'invalid',
      error: REASON(badByte),
    });
  }, 60_000);
});
