import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { runIdOf } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';

// A list in a JSON source, or repeated XML elements, were joined with `|` into one value, which a
// list field then split on `,`: two image URLs went out as one broken URL, a tag "x, y" as two.
describe('a list in the source reaching a list field', () => {
  const pipeline = usePipeline();

  const runTwice = async (source: string) => {
    const first = await pipeline.cli(['run', source]);
    expect(first.code, first.stderr).toBe(0);
    const second = await pipeline.cli(['run', source]);
    expect(second.code, second.stderr).toBe(0);
    return { first, second };
  };

  it('sends a JSON array item by item (images, tags), and a second run writes nothing', async () => {
    const source = join(pipeline.dir, 'catalog.json');
    await writeFile(
      source,
      JSON.stringify([
        {
          sku: 'J1',
          name: 'Mug',
          price: '12.50',
          images: ['https://x.example/a.jpg', 'https://x.example/b.jpg'],
          tags: ['red', 'blue'],
        },
        { sku: 'J2', name: 'Cup', price: '3.00', tags: ['x, y'] },
      ]),
    );
    const { first, second } = await runTwice(source);

    expect(first.stdout).toContain('rows      2: 2 created,');
    const products = bySku(pipeline.products());
    expect(products.get('J1')).toMatchObject({
      images: ['https://x.example/a.jpg', 'https://x.example/b.jpg'],
      tags: ['red', 'blue'],
    });
    expect(products.get('J2')).toMatchObject({ tags: ['x, y'] });
    expect(second.stdout).toContain('rows      2: 0 created, 0 updated, 2 unchanged, 0 invalid, 0 failed');
    expect(second.stdout).toContain('(0 writes)');
  });

  it("sends a Merchant feed's repeated additional_image_link as images of their own", async () => {
    const source = join(pipeline.dir, 'feed.xml');
    await writeFile(
      source,
      `<?xml version="1.0"?>
<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel>
  <item>
    <g:id>G1</g:id>
    <g:title>Mug</g:title>
    <g:price>12.50 EUR</g:price>
    <g:image_link>https://x.example/1.jpg</g:image_link>
    <g:additional_image_link>https://x.example/1b.jpg</g:additional_image_link>
    <g:additional_image_link>https://x.example/1c.jpg</g:additional_image_link>
  </item>
</channel></rss>`,
    );
    const { first, second } = await runTwice(source);

    expect(first.stdout).toContain('preset google-merchant');
    expect(bySku(pipeline.products()).get('G1')).toMatchObject({
      images: ['https://x.example/1.jpg', 'https://x.example/1b.jpg', 'https://x.example/1c.jpg'],
    });
    expect(second.stdout).toContain('rows      1: 0 created, 0 updated, 1 unchanged, 0 invalid, 0 failed');
    expect(second.stdout).toContain('(0 writes)');
  });

  it('writes the list back in --failed-only as a cell that imports as the same items', async () => {
    const source = join(pipeline.dir, 'catalog.json');
    const images = ['https://x.example/a.jpg', 'https://x.example/b.jpg'];
    // No price: a new product cannot be created, the row is invalid.
    await writeFile(source, JSON.stringify([{ sku: 'J1', name: 'Mug', images, tags: ['red', 'blue'] }]));
    const first = await pipeline.cli(['run', source]);
    expect(first.code).toBe(1);

    const out = join(pipeline.dir, 'failed.csv');
    const failedOnly = await pipeline.cli(['report', runIdOf(first.stdout), '--failed-only', '--out', out]);
    expect(failedOnly.code, failedOnly.stderr).toBe(0);
    const [header = [], line = []] = parse(await readFile(out, 'utf8')) as string[][];
    expect(header).toEqual(['sku', 'name', 'images', 'tags', 'error']);
    expect(line.slice(0, 4)).toEqual(['J1', 'Mug', images.join(', '), 'red, blue']);

    const fixed = join(pipeline.dir, 'fixed.csv');
    await writeFile(
      fixed,
      stringify([
        [...header, 'price'],
        [...line, '12.50'],
      ]),
    );
    const again = await pipeline.cli(['run', fixed]);
    expect(again.code, again.stderr).toBe(0);
    expect(bySku(pipeline.products()).get('J1')).toMatchObject({ images, tags: ['red', 'blue'] });
  });
});
