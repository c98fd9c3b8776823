import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { isBlankRecord } from '../../src/catalog/blank-record.js';
import { CatalogConfigError, createMapper, PRESET_NAMES } from '../../src/catalog/index.js';
import { PRESETS } from '../../src/catalog/presets/index.js';
import type { MappedRow, SourceRecord } from '../../src/interfaces.js';
import { type OpenSourceOptions, SourceError } from '../../src/sources/index.js';
import { readBytes } from './support.js';

/**
 * Issue 10, "Fuzzing": random bytes, random nesting and random encodings thrown at every parser
 * (CSV, JSON, NDJSON, XML, and the detection before them) and at the mapper. Each input must end as
 * records (rows, or invalid rows with a reason) or as one clear error (SourceError, or the mapper's
 * CatalogConfigError): never another exception, never a mark of bad bytes or a U+FFFD that the
 * input did not hold in a row that is not invalid. Runs are few enough for the whole file to take
 * well under 30 s.
 */
const FORMATS = [undefined, 'csv', 'json', 'ndjson', 'xml'] as const;
const MARKS = /[\uFDD0-\uFDEF]/;

/** Reads the bytes; fails the property on anything but records or a SourceError. */
async function readOrSourceError(bytes: Uint8Array, options: OpenSourceOptions, chunk: number) {
  const result = await readBytes(bytes, options, chunk);
  if ('error' in result) {
    if (!(result.error instanceof SourceError)) throw result.error;
    expect(result.error.message).not.toMatch(/\n/);
    expect(result.error.message).not.toMatch(MARKS);
    return { error: result.error };
  }
  for (const record of result.records) checkRecord(record);
  return { records: result.records, encoding: result.opened.encoding };
}

function checkRecord(record: SourceRecord): void {
  expect(Number.isInteger(record.row) && record.row >= 1).toBe(true);
  expect(typeof record.values).toBe('object');
  for (const [key, value] of Object.entries(record.values)) {
    expect(typeof value).toBe('string');
    expect(key).not.toMatch(MARKS);
    expect(value).not.toMatch(MARKS);
  }
  if (record.problem !== undefined) expect(record.problem).toMatch(/^[^\n]+$/);
}

const options = fc.record(
  {
    format: fc.constantFrom(...FORMATS),
    encoding: fc.constantFrom(undefined, 'utf-8', 'windows-1252', 'latin1', 'utf-16le'),
    maxRecordBytes: fc.constantFrom(undefined, 64, 300, 4096),
  },
  { requiredKeys: [] },
);

/** Bytes that look like something: the start of each format, high bytes, quotes, brackets, NUL. */
const pieces = fc.constantFrom(
  'sku,name\n',
  'sku;name;price\n',
  '"',
  ',',
  '\n',
  '\r\n',
  '[',
  ']',
  '{',
  '}',
  '{"sku":"',
  '":',
  '<rss><channel><item>',
  '</item>',
  '<sku>',
  '</sku>',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<?x?>',
  'é',
  '€',
  '🍓',
  '\uFFFD',
  '\uFDD0',
);
const bytePiece = fc.oneof(
  pieces.map((piece) => Buffer.from(piece, 'utf8')),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => Buffer.from(bytes)),
  fc
    .constantFrom(0xe9, 0x80, 0x81, 0xc3, 0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x00, 0x1f, 0x8b)
    .map((byte) => Buffer.from([byte])),
);
const randomInput = fc.array(bytePiece, { maxLength: 60 }).map((parts) => Buffer.concat(parts));

describe('random bytes', () => {
  it('end as records or one SourceError, whatever the format, encoding, cap and chunking', async () => {
    await fc.assert(
      fc.asyncProperty(randomInput, options, fc.integer({ min: 1, max: 64 }), async (bytes, opts, chunk) => {
        const result = await readOrSourceError(bytes, opts, chunk);
        // Decoded as UTF-8, a row that is not invalid holds U+FFFD only where the input did.
        if (result.records && result.encoding === 'utf-8' && !bytes.includes(Buffer.from('\uFFFD'))) {
          for (const record of result.records.filter((r) => r.problem === undefined)) {
            for (const value of Object.values(record.values)) expect(value).not.toContain('\uFFFD');
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gzip-compressed random bytes too', async () => {
    const { gzipSync } = await import('node:zlib');
    await fc.assert(
      fc.asyncProperty(randomInput, options, fc.boolean(), async (bytes, opts, cut) => {
        const gz = gzipSync(bytes);
        await readOrSourceError(cut ? gz.subarray(0, Math.floor(gz.length / 2)) : gz, opts, 17);
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * An item whose deepest part is at level `depth` (the item is level 1): JSON under the key `v`
 * (depth - 1 objects and arrays at random), XML under the element `<v>` (itself level 2).
 */
const nested = fc
  .record({
    depth: fc.integer({ min: 2, max: 140 }),
    kinds: fc.array(fc.boolean(), { minLength: 140, maxLength: 140 }),
    leaf: fc.string({ maxLength: 5 }),
  })
  .map(({ depth, kinds, leaf }) => {
    let json = JSON.stringify(leaf);
    for (let level = depth; level >= 2; level--) json = kinds[level] ? `{"k${level}":${json}}` : `[${json}]`;
    let xml = leaf.replace(/[<&]/g, '_');
    for (let level = depth; level >= 3; level--) xml = `<k${level}>${xml}</k${level}>`;
    return { depth, json, xml };
  });

describe('random nesting', () => {
  it('a JSON element, an NDJSON line and an XML item deeper than 64 levels are invalid rows; others read', async () => {
    await fc.assert(
      fc.asyncProperty(nested, async ({ depth, json, xml }) => {
        const tooDeep = depth > 64;
        const sources: Array<[string, OpenSourceOptions]> = [
          [`[{"sku":"A","v":${json}},{"sku":"B"}]`, {}],
          [`{"sku":"A","v":${json}}\n{"sku":"B"}\n`, { format: 'ndjson' }],
          [
            `<rss><channel><item><sku>A</sku><v>${xml}</v></item><item><sku>B</sku></item></channel></rss>`,
            {},
          ],
        ];
        for (const [text, opts] of sources) {
          const result = await readOrSourceError(Buffer.from(text), opts, 50);
          if (!result.records) throw result.error;
          expect(result.records).toHaveLength(2);
          expect(result.records[0]?.problem === undefined).toBe(!tooDeep);
          if (tooDeep) expect(result.records[0]?.problem).toMatch(/nested deeper than 64 levels$/);
          expect(result.records[1]?.values.sku).toBe('B');
        }
      }),
      { numRuns: 60 },
    );
  });

  it('random brackets and tags never crash a reader', async () => {
    const brackets = fc.array(fc.constantFrom('[', ']', '{', '}', '"k":', ',', '1', '"'), { maxLength: 300 });
    const tags = fc.array(fc.constantFrom('<a>', '</a>', '<b/>', '<item>', '</item>', 'x', '<!--', '-->'), {
      maxLength: 300,
    });
    await fc.assert(
      fc.asyncProperty(brackets, tags, async (json, xml) => {
        await readOrSourceError(Buffer.from(json.join('')), { format: 'json' }, 7);
        await readOrSourceError(Buffer.from(json.join('')), { format: 'ndjson' }, 7);
        await readOrSourceError(Buffer.from(`<rss><channel>${xml.join('')}</channel></rss>`), {}, 7);
      }),
      { numRuns: 100 },
    );
  });
});

/** Catalog text in characters every encoding below can hold. */
const cell = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', 'é', 'ü', 'ß', '€', '–', 'ñ', '"', ','),
  maxLength: 8,
});
const ENCODINGS = ['utf-8', 'utf-16le', 'windows-1252', 'latin1'] as const;

describe('random encodings', () => {
  it('read back exactly when the encoding is given, and end cleanly when bytes are flipped', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(cell, cell), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...ENCODINGS),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 3 }),
        async (rows, encoding, flips) => {
          const quote = (text: string) => `"${text.replaceAll('"', '""')}"`;
          const text = `sku,name\n${rows.map(([a, b]) => `${quote(`S${a}`)},${quote(b)}`).join('\n')}\n`;
          // latin1 has no € or –: those become `?` before encoding, and are expected so.
          const expectedText = encoding === 'latin1' ? text.replace(/[€–]/g, '?') : text;
          const bytes = iconv.encode(expectedText, encoding);

          const clean = await readOrSourceError(bytes, { encoding, format: 'csv', delimiter: ',' }, 5);
          if (!clean.records) throw clean.error;
          const held = (value: string) => (encoding === 'latin1' ? value.replace(/[€–]/g, '?') : value);
          expect(clean.records.map((record) => record.values)).toEqual(
            rows.map(([a, b]) => ({ sku: held(`S${a}`), name: held(b) })),
          );

          const flipped = Buffer.from(bytes);
          for (const [at, byte] of flips) flipped[at % flipped.length] = byte;
          await readOrSourceError(flipped, {}, 5);
          await readOrSourceError(flipped, { encoding }, 5);
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Column names of every preset (each one's signature), and some that no preset knows. */
const COLUMNS = [
  ...new Set([
    ...Object.values(PRESETS).flatMap((preset) => [
      ...preset.signature.required.flat(),
      ...preset.signature.distinctive,
    ]),
    'sku',
    'name',
    'price',
    'quantity',
    'id',
    'status',
    'images',
  ]),
];
const mapperValue = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '12.50',
    '1,5',
    '-3',
    '1e309',
    'NaN',
    'true',
    'draft',
    'A|B',
    'x'.repeat(300),
    '=1+1',
    '0x10',
  ),
  fc.string({ maxLength: 12 }),
);

describe('the mapper', () => {
  it('makes each random record exactly one row (upsert, invalid, merged, or skipped when blank), or refuses the columns in one line', async () => {
    // Both ends are counted: a property whose every run met a config error would check no row.
    let refused = 0;
    let mapped = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.oneof(fc.constantFrom(...COLUMNS), fc.string({ minLength: 1, maxLength: 8 })), {
          minLength: 1,
          maxLength: 10,
        }),
        fc.option(fc.constantFrom(...PRESET_NAMES), { nil: undefined }),
        fc.constantFrom('sku', 'name', 'id'),
        // Half the runs have a column of the match field: drawn at random alone, about 1 run in 100
        // built a mapper, so 300 runs built none about once in 20 (and checked no row).
        fc.boolean(),
        fc.array(
          fc.tuple(
            fc.array(mapperValue, { maxLength: 11 }),
            fc.option(fc.string({ minLength: 1 }), { nil: undefined }),
          ),
          {
            maxLength: 12,
          },
        ),
        async (drawn, preset, matchBy, withKey, rows) => {
          const columns = withKey && !drawn.includes(matchBy) ? [matchBy, ...drawn] : drawn;
          let mapper: ReturnType<typeof createMapper>;
          try {
            mapper = createMapper({ columns, matchBy, ...(preset ? { preset } : {}) });
          } catch (error) {
            if (!(error instanceof CatalogConfigError)) throw error;
            expect(error.message).toMatch(/^[^\n]+$/);
            refused++;
            return;
          }
          const records: SourceRecord[] = rows.map(([cells, problem], i) => ({
            row: i + 1,
            line: i + 2,
            values: Object.fromEntries(columns.map((column, c) => [column, cells[c] ?? ''])),
            ...(problem === undefined ? {} : { problem }),
          }));
          async function* source() {
            yield* records;
          }
          const rowsOut: MappedRow[] = [];
          for await (const row of mapper.map(source())) rowsOut.push(row);
          expect(rowsOut.map((row) => row.row).sort((a, b) => a - b)).toEqual(
            records.map((record) => record.row),
          );
          for (const row of rowsOut) {
            // Skipped only as a blank row (every cell blank): it stands for no product.
            const blank = isBlankRecord(records[row.row - 1]!);
            expect(
              blank ? ['upsert', 'invalid', 'merged', 'skipped'] : ['upsert', 'invalid', 'merged'],
            ).toContain(row.kind);
            if (row.kind === 'invalid' || row.kind === 'skipped') expect(row.reason).toMatch(/^[^\n]+$/);
          }
          mapped++;
        },
      ),
      { numRuns: 300 },
    );
    expect(mapped, 'runs that built a mapper').toBeGreaterThan(0);
    expect(refused, 'runs whose columns were refused').toBeGreaterThan(0);
  });
});
