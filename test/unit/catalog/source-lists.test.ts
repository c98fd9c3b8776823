import { describe, expect, it } from 'vitest';
import { createMapper, type MapperOptions, parseMapping } from '../../../src/catalog/index.js';
import type { MappedRow, ProductFields } from '../../../src/interfaces.js';
import { SourceRowCapture } from '../../../src/runs/source-rows.js';
import { openSource } from '../../../src/sources/index.js';
import { stdinOf } from '../sources/helpers.js';

/** A source given as text on standard input, opened and mapped as a run does: each row's fields. */
async function fieldsOf(text: string, options: Partial<MapperOptions> = {}): Promise<ProductFields[]> {
  const source = await openSource('-', { stdin: stdinOf(text) });
  try {
    const mapper = createMapper({
      columns: source.columns,
      openColumns: source.openColumns,
      ...options,
    });
    const rows: MappedRow[] = [];
    for await (const row of mapper.map(source.records)) rows.push(row);
    return rows.map((row) => (row.kind === 'upsert' ? row.fields : { invalid: String(row.kind) }));
  } finally {
    await source.close();
  }
}

const MUG = {
  sku: 'J1',
  name: 'Mug',
  price: '12.50',
  images: ['https://x.example/a.jpg', ' https://x.example/b.jpg ', ''],
  tags: ['red', 'blue'],
};

describe('a list in a JSON or NDJSON source', () => {
  it('reaches a list field item by item, each trimmed, blanks dropped (generic preset); a text field joined with | as before', async () => {
    const expected = {
      images: ['https://x.example/a.jpg', 'https://x.example/b.jpg'],
      tags: ['red', 'blue'],
    };
    const [json] = await fieldsOf(JSON.stringify([{ ...MUG, description: ['One', 'Two'] }]));
    expect(json).toMatchObject({ ...expected, description: 'One|Two' });
    const ndjson = `${JSON.stringify(MUG)}\n${JSON.stringify({ ...MUG, sku: 'J2' })}\n`;
    expect(await fieldsOf(ndjson)).toEqual([
      expect.objectContaining(expected),
      expect.objectContaining(expected),
    ]);
  });

  it('keeps an item holding a comma as one item, where a CSV cell is split on ,', async () => {
    const [fields] = await fieldsOf(JSON.stringify([{ ...MUG, tags: ['x, y', 'z'] }]));
    expect(fields?.tags).toEqual(['x, y', 'z']);
    const [csv] = await fieldsOf('sku,name,price,tags\nC1,Cup,3,"x, y"\n');
    expect(csv?.tags).toEqual(['x', 'y']);
  });

  it('stays a list under a header read in another case (Tags as tags)', async () => {
    const [fields] = await fieldsOf(
      JSON.stringify([{ SKU: 'J1', Name: 'Mug', Price: '12.50', Tags: ['x, y', 'z'] }]),
    );
    expect(fields).toMatchObject({ sku: 'J1', tags: ['x, y', 'z'] });
  });

  it('reaches a list field of a mapping file item by item', async () => {
    const mapping = parseMapping(
      'fields:\n  sku: sku\n  name: name\n  price: price\n  images:\n    column: pictures\n    transform: [lowercase]\n',
      'feed.yml',
      'yaml',
    );
    const [fields] = await fieldsOf(
      JSON.stringify([
        { sku: 'J1', name: 'Mug', price: '1', pictures: ['https://X.example/A,1.jpg', 'B.jpg'] },
      ]),
      { mapping },
    );
    expect(fields?.images).toEqual(['https://x.example/a,1.jpg', 'b.jpg']);
  });
});

const FEED = `<?xml version="1.0"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>
  <item>
    <g:id>G1</g:id>
    <g:title>Mug</g:title>
    <g:price>12.50 EUR</g:price>
    <g:image_link>https://x.example/1.jpg</g:image_link>
    <g:additional_image_link>https://x.example/1b.jpg</g:additional_image_link>
    <g:additional_image_link> https://x.example/1c.jpg </g:additional_image_link>
  </item>
  <item>
    <g:id>G2</g:id>
    <g:title>Cup</g:title>
    <g:price>3.00 EUR</g:price>
    <g:image_link>https://x.example/2.jpg</g:image_link>
    <g:additional_image_link>https://x.example/2b.jpg,https://x.example/2c.jpg</g:additional_image_link>
  </item>
</channel></rss>`;

describe('repeated elements of a Google Merchant feed', () => {
  it('are one image each; a single element is read as before, split on ,', async () => {
    const rows = await fieldsOf(FEED);
    expect(rows.map((fields) => fields.images)).toEqual([
      ['https://x.example/1.jpg', 'https://x.example/1b.jpg', 'https://x.example/1c.jpg'],
      ['https://x.example/2.jpg', 'https://x.example/2b.jpg', 'https://x.example/2c.jpg'],
    ]);
  });
});

describe('a list kept for report --failed-only', () => {
  it('is written as its items joined with ", ", the cell a list field splits back into them', async () => {
    const source = await openSource('-', { stdin: stdinOf(JSON.stringify([MUG])) });
    const capture = new SourceRowCapture(source.columns);
    for await (const _ of capture.tap(source.records));
    expect(capture.headerChange()).toEqual(['sku', 'name', 'price', 'images', 'tags']);
    expect(capture.take(1)).toEqual([
      'J1',
      'Mug',
      '12.50',
      'https://x.example/a.jpg,  https://x.example/b.jpg , ',
      'red, blue',
    ]);
    const [reread] = await fieldsOf(
      'sku,name,price,images,tags\nJ1,Mug,12.50,"https://x.example/a.jpg,  https://x.example/b.jpg , ","red, blue"\n',
    );
    expect(reread).toMatchObject({
      images: ['https://x.example/a.jpg', 'https://x.example/b.jpg'],
      tags: ['red', 'blue'],
    });
  });
});
