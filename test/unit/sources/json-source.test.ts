import { describe, expect, it } from 'vitest';
import { openSource } from '../../../src/sources/index.js';
import { openAndRead, stdinOf } from './helpers.js';

const readText = (text: string, name = '-') => openAndRead(name, { stdin: stdinOf(text, 5) });

describe('a JSON source', () => {
  it('reads an array of objects, one record per item, values as strings', async () => {
    const json = `[
      {"sku": "A1", "name": "Crème brûlée – 1 kg", "price": 12.50, "active": true, "sale": null,
       "images": ["a.jpg", "b.jpg"], "shipping": {"country": "FR", "price": {"amount": 4.9}}},
      {"sku": "B2", "price": 3}
    ]`;
    const { opened, records } = await readText(json);
    expect(opened.format).toBe('json');
    expect(opened.columns).toEqual([
      'sku',
      'name',
      'price',
      'active',
      'images',
      'shipping.country',
      'shipping.price.amount',
    ]);
    expect(records).toEqual([
      {
        row: 1,
        line: 1,
        values: {
          sku: 'A1',
          name: 'Crème brûlée – 1 kg',
          price: '12.50',
          active: 'true',
          images: 'a.jpg|b.jpg',
          'shipping.country': 'FR',
          'shipping.price.amount': '4.9',
        },
        lists: { images: ['a.jpg', 'b.jpg'] },
      },
      { row: 2, line: 2, values: { sku: 'B2', price: '3' } },
    ]);
  });

  it.each(['products', 'items', 'data', 'entries'])(
    'reads the array an object wraps under %j',
    async (key) => {
      const json = `{"meta": {"count": 2, "tags": ["x"]}, "${key}": [{"sku": "A1"}, {"sku": "B2"}], "next": null}`;
      const { records } = await readText(json);
      expect(records.map((record) => record.values.sku)).toEqual(['A1', 'B2']);
    },
  );

  it('reads the only array of objects under any other key, past arrays of scalars', async () => {
    const json = `{"tags": ["a", "b"], "listings": [{"sku": "A1"}], "total": 1}`;
    const { records } = await readText(json);
    expect(records).toEqual([{ row: 1, line: 1, values: { sku: 'A1' } }]);
  });

  it('refuses an object with two arrays of objects, naming both', async () => {
    await expect(readText('{"products": [{"sku": "A"}], "variants": [{"sku": "B"}]}')).rejects.toThrow(
      'several arrays of objects ("products", "variants")',
    );
  });

  it('refuses an object that wraps no array', async () => {
    await expect(readText('{"sku": "A1", "name": "Mug"}')).rejects.toThrow('holds no array of products');
  });

  it('keeps an item that is not an object, saying so', async () => {
    const { records } = await readText('[{"sku": "A1"}, 42]');
    expect(records[1]).toEqual({ row: 2, line: 2, values: {}, problem: 'item 2 is not a JSON object' });
  });

  it.each([
    [
      'cut short',
      '[{"sku": "A1"}, {"sku": ',
      'standard input: not valid JSON: the document ends early, after item 1',
    ],
    ['broken', '[{"sku": "A1"}, {"sku" "B2"}]', /^standard input: not valid JSON: \w/],
  ])('names the source when the JSON is %s', async (_, json, message) => {
    const reading = (async () => {
      const opened = await openSource('-', { stdin: stdinOf(json) });
      for await (const _ of opened.records);
    })();
    await expect(reading).rejects.toThrow(message);
  });
});

describe('an NDJSON source', () => {
  it('reads one object per line, skips blank lines, and keeps a bad line as a record with a problem', async () => {
    const ndjson = '{"sku":"A1","price":1.5}\n\n{"sku":"B2","name":"Café"}\n{"sku": oops}\n[1]\n{"sku":"C3"}';
    const { opened, records } = await readText(ndjson);
    expect(opened.format).toBe('ndjson');
    expect(opened.columns).toEqual(['sku', 'price']);
    expect(records.map(({ row, line, values }) => [row, line, values])).toEqual([
      [1, 1, { sku: 'A1', price: '1.5' }],
      [2, 3, { sku: 'B2', name: 'Café' }],
      [3, 4, {}],
      [4, 5, {}],
      [5, 6, { sku: 'C3' }],
    ]);
    expect(records[2]?.problem).toMatch(/^line 4 is not valid JSON \(/);
    expect(records[3]?.problem).toBe('line 5 is not a JSON object');
  });
});

const RSS = `<?xml version='1.0' encoding='UTF-8'?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0">
<channel>
  <title>Shop</title>
  <item>
    <g:id>A1</g:id>
    <title><![CDATA[Crème brûlée – 1 kg]]></title>
    <g:price>4.50 EUR</g:price>
    <g:additional_image_link>https://x.test/1.jpg</g:additional_image_link>
    <g:additional_image_link>https://x.test/2.jpg</g:additional_image_link>
    <g:shipping>
      <g:country>FR</g:country>
      <g:price>4.90 EUR</g:price>
    </g:shipping>
    <g:description>Salt &amp; pepper &#8364;</g:description>
  </item>
  <item>
    <g:id>B2</g:id>
    <g:price/>
  </item>
</channel>
</rss>`;

describe('a Google Merchant Center feed', () => {
  it('reads RSS items by local element name, with CDATA, entities, repeats and nested elements', async () => {
    const { opened, records } = await readText(RSS);
    expect(opened.format).toBe('xml');
    expect(opened.columns).toEqual([
      'id',
      'title',
      'price',
      'additional_image_link',
      'shipping.country',
      'shipping.price',
      'description',
    ]);
    expect(records).toEqual([
      {
        row: 1,
        line: 5,
        values: {
          id: 'A1',
          title: 'Crème brûlée – 1 kg',
          price: '4.50 EUR',
          additional_image_link: 'https://x.test/1.jpg|https://x.test/2.jpg',
          'shipping.country': 'FR',
          'shipping.price': '4.90 EUR',
          description: 'Salt & pepper €',
        },
        lists: { additional_image_link: ['https://x.test/1.jpg', 'https://x.test/2.jpg'] },
      },
      { row: 2, line: 17, values: { id: 'B2', price: '' } },
    ]);
  });

  it('reads Atom entries, taking a link from its href', async () => {
    const atom = `<?xml version="1.0"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="http://base.google.com/ns/1.0">
  <title>Shop</title>
  <entry>
    <g:id>A1</g:id>
    <title>Mug</title>
    <link href="https://x.test/mug"/>
    <g:price>12.00 USD</g:price>
  </entry>
</feed>`;
    const { records } = await readText(atom);
    expect(records).toEqual([
      { row: 1, line: 4, values: { id: 'A1', title: 'Mug', link: 'https://x.test/mug', price: '12.00 USD' } },
    ]);
  });

  it('refuses XML that is not a feed', async () => {
    await expect(readText('<catalog><product/></catalog>')).rejects.toThrow(
      'standard input: the XML root is <catalog>, not an RSS <rss> or Atom <feed> feed',
    );
  });

  it('names the line of broken XML', async () => {
    await expect(readText('<rss>\n<channel>\n<item><g:id>1</g:idx></item>')).rejects.toThrow(
      /^standard input: not valid XML at line 3: /,
    );
  });
});
