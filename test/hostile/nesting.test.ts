import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../integration/support/catalog.js';
import { MAIN_SELLER, usePipeline } from '../integration/support/pipeline.js';
import { readBytes, tempFolder } from './support.js';

/**
 * Issue 10, item 5: a value nested 100,000 objects deep crashed the run with `RangeError: Maximum
 * call stack size exceeded` (src/sources/flatten), after earlier rows were written. Now nesting
 * deeper than 64 levels (the item is level 1) makes that row invalid, in JSON, NDJSON and XML, and
 * the value is never built whole.
 */
const DEEP = 100_000;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const arrays = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const elements = (depth: number) => `${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`;

type Read = Awaited<ReturnType<typeof readBytes>>;
const rows = (result: Read) => {
  if ('error' in result) throw result.error;
  return result.records.map(({ row, values, problem }) => ({ row, sku: values.sku, problem }));
};

describe('a value nested 100,000 levels deep', () => {
  it('in a JSON array element: that row is invalid, the others read', async () => {
    const text = `[{"sku":"A"},{"sku":"B","x":${objects(DEEP)}},{"sku":"C"}]`;
    expect(rows(await readBytes(text))).toEqual([
      { row: 1, sku: 'A', problem: undefined },
      { row: 2, sku: undefined, problem: 'item 2 is nested deeper than 64 levels' },
      { row: 3, sku: 'C', problem: undefined },
    ]);
  });

  it('in a JSON element made of arrays', async () => {
    const text = `[{"sku":"A","x":${arrays(DEEP)}},{"sku":"C"}]`;
    expect(rows(await readBytes(text))[0]).toEqual({
      row: 1,
      sku: undefined,
      problem: 'item 1 is nested deeper than 64 levels',
    });
  });

  it('in an NDJSON line', async () => {
    const text = `{"sku":"A"}\n{"sku":"B","x":${objects(DEEP)}}\n{"sku":"C"}\n`;
    expect(rows(await readBytes(text, { format: 'ndjson' }))).toEqual([
      { row: 1, sku: 'A', problem: undefined },
      { row: 2, sku: undefined, problem: 'line 2 is nested deeper than 64 levels' },
      { row: 3, sku: 'C', problem: undefined },
    ]);
  });

  it('in an XML item', async () => {
    const text = `<rss><channel><item><sku>A</sku></item><item><sku>B</sku>${elements(DEEP)}</item><item><sku>C</sku></item></channel></rss>`;
    expect(rows(await readBytes(text))).toEqual([
      { row: 1, sku: 'A', problem: undefined },
      { row: 2, sku: undefined, problem: 'item 2 is nested deeper than 64 levels' },
      { row: 3, sku: 'C', problem: undefined },
    ]);
  }, 20_000);

  it('in XML outside any item: one line, no crash', async () => {
    const text = `<rss><channel>${elements(DEEP)}<item><sku>A</sku></item></channel></rss>`;
    const result = await readBytes(text);
    expect('error' in result && result.error.message).toBe(
      'standard input: the XML nests deeper than 64 levels outside any item, at line 1',
    );
  }, 20_000);
});

describe('the limit is 64 levels, the item being level 1', () => {
  it.each([
    ['JSON', (depth: number) => `[{"sku":"A","x":${objects(depth - 1)}}]`, {}],
    ['NDJSON', (depth: number) => `{"sku":"A","x":${objects(depth - 1)}}\n`, { format: 'ndjson' as const }],
    [
      'XML',
      (depth: number) => `<rss><channel><item><sku>A</sku>${elements(depth - 1)}</item></channel></rss>`,
      {},
    ],
  ])('%s: 64 levels read, 65 invalid', async (_, build, options) => {
    const at64 = rows(await readBytes(build(64), options));
    expect(at64[0]).toMatchObject({ sku: 'A', problem: undefined });
    const at65 = rows(await readBytes(build(65), options));
    expect(at65[0]?.problem).toMatch(/nested deeper than 64 levels$/);
  });

  it('keeps an XML item whose deep parts are siblings, not nested', async () => {
    const wide = '<a><b>1</b></a>'.repeat(1000);
    const text = `<rss><channel><item><sku>A</sku>${wide}</item><item><sku>B</sku></item></channel></rss>`;
    expect(rows(await readBytes(text)).map((row) => row.sku)).toEqual(['A', 'B']);
  });
});

describe('through the CLI', () => {
  const pipeline = usePipeline();
  const folder = tempFolder();
  afterAll(() => folder.remove());

  it('`run` reports the deep row invalid with its reason and syncs the others (exit 1, no stack)', async () => {
    const source = folder.write(
      'deep.json',
      `[{"sku":"A","name":"A","price":1},{"sku":"B","name":"B","price":2,"x":${objects(DEEP)}},{"sku":"C","name":"C","price":3}]`,
    );
    const report = join(pipeline.dir, 'report.csv');

    const result = await pipeline.cli(['run', source, '--report', report]);

    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    expect(
      pipeline
        .products(MAIN_SELLER)
        .map((product) => product.sku)
        .sort(),
    ).toEqual(['A', 'C']);
    expect(parseCsv(await pipeline.readText('report.csv'))[1]).toMatchObject({
      row: '2',
      action: 'invalid',
      status: 'failed',
      error: 'item 2 is nested deeper than 64 levels',
    });
  });
});
