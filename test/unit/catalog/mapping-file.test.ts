import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogConfigError, loadMappingFile, parseMapping } from '../../../src/catalog/index.js';
import { projectRoot } from '../../../src/project-root.js';
import { mapRows } from './map-rows.js';

describe('parseMapping', () => {
  it('reads YAML with shorthand columns, transforms and constants', () => {
    const spec = parseMapping(
      'decimal: comma\nfields:\n  sku: Artikel\n  price: { column: Preis, transform: [strip-currency, decimal] }\n  brand: { constant: Acme }\n',
      'm.yml',
      'yaml',
    );
    expect(spec).toMatchObject({ origin: 'm.yml', decimal: 'comma', fields: { sku: { column: 'Artikel' } } });
  });

  it.each([
    [
      'fields:\n  price: { column: p, transform: [trim, decimall] }\n',
      'mapping.yml: fields.price.transform[1]: unknown transform "decimall" (known: trim,',
    ],
    ['fields:\n  price: { colum: p }\n', 'mapping.yml: fields.price: unknown key "colum"'],
    ['fields:\n  price: { column: p, constant: 3 }\n', 'mapping.yml: fields.price: give exactly one of'],
    ['fields: {}\ndecimal: point\n', 'mapping.yml: decimal: "point" is not one of dot, comma, either, auto'],
    ['fields: {}\npreset: shopfy\n', 'mapping.yml: preset: "shopfy" is not one of generic, shopify'],
    ['field: {}\n', 'mapping.yml: unknown key "field"'],
    ['decimal: dot\n', 'mapping.yml: fields: missing'],
    ['fields:\n  price: [a\n', 'mapping.yml: not valid YAML:'],
  ])('refuses %j in one line naming the key', (text, message) => {
    let error: unknown;
    try {
      parseMapping(text, 'mapping.yml', 'yaml');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CatalogConfigError);
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
  });

  it('ends a YAML syntax error at its position, not at the colon before the code frame', () => {
    expect(() => parseMapping('fields:\n  price: p\n bad: [\n', 'mapping.yml', 'yaml')).toThrow(
      /^mapping\.yml: not valid YAML: .* at line \d+, column \d+$/,
    );
  });

  it('reads JSON, and names JSON syntax errors', () => {
    expect(parseMapping('{"fields":{"sku":"id"}}', 'm.json', 'json').fields.sku).toEqual({ column: 'id' });
    expect(() => parseMapping('{"fields":', 'm.json', 'json')).toThrow(/^m\.json: not valid JSON/);
  });
});

describe("a mapping file's target fields", () => {
  const refused = (fields: string) => () => parseMapping(`fields:\n  sku: Ref\n${fields}`, 'map.yml', 'yaml');

  it.each([
    [
      '  quantiy: Stock\n',
      'map.yml: fields.quantiy: no product field is named so; the nearest field is quantity (to send a field named quantiy all the same, give it custom: true)',
    ],
    [
      '  stock: { column: Stock, transform: [integer] }\n',
      'map.yml: fields.stock: no product field is named so; the stock field is quantity (to send a field named stock all the same, give it custom: true)',
    ],
    [
      '  Price: Cost\n',
      'map.yml: fields.Price: no product field is named so; the nearest field is price (to send a field named Price all the same, give it custom: true)',
    ],
    // Removing a field no preset gives removes nothing.
    ['  nmae: null\n', 'map.yml: fields.nmae: no product field is named so; the nearest field is name'],
    [
      '  price: { column: Cost, custom: true }\n',
      'map.yml: fields.price.custom: price is a product field, not a custom one: drop custom',
    ],
  ])('refuses %j in one line naming the key and the field meant', (fields, message) => {
    expect(refused(fields)).toThrow(CatalogConfigError);
    expect(refused(fields)).toThrow(new CatalogConfigError(message));
  });

  it('takes an attribute word and a numbered field without custom: true', () => {
    // `height: Höhe` ran every night until the check refused it (one letter from `weight`).
    const spec = parseMapping(
      'fields:\n  sku: Ref\n  height: Höhe\n  Width: B\n  price2: Preis2\n  image_2: Bild2\n',
      'map.yml',
      'yaml',
    );
    expect(Object.keys(spec.fields)).toEqual(['sku', 'height', 'Width', 'price2', 'image_2']);
  });

  it('takes a custom field far from every product field, and a near one given custom: true', () => {
    const spec = parseMapping(
      'fields:\n  sku: Ref\n  material: Stoff\n  height: { column: H, custom: true }\n',
      'map.yml',
      'yaml',
    );
    expect(Object.keys(spec.fields)).toEqual(['sku', 'material', 'height']);
  });

  it.each(['bigcommerce.yml', 'ec-cube.yml', 'prestashop.yml', 'shopware.yml', 'shopware5.yml'])(
    'reads the example %s',
    async (name) => {
      const path = join(projectRoot(), 'fixtures/mappings', name);
      await expect(loadMappingFile(path)).resolves.toMatchObject({ origin: path });
    },
  );
});

describe('loadMappingFile', () => {
  it('reads a file from disk and names an unreadable one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mapping-'));
    const path = join(dir, 'shop.yml');
    await writeFile(path, 'fields:\n  sku: ref\n');
    // Named by the path given (`maps/de.yml`), not its base name: which de.yml?
    expect((await loadMappingFile(path)).origin).toBe(path);
    await expect(loadMappingFile(join(dir, 'none.yml'))).rejects.toThrow(
      'none.yml: cannot read the mapping file (ENOENT)',
    );
  });
});

describe('a mapping against a source', () => {
  it('names a column the source lacks', async () => {
    const mapping = parseMapping('fields:\n  sku: ref\n  price: Preis\n', 'shop.yml', 'yaml');
    await expect(mapRows(['ref', 'Price'], [['A', '1']], { mapping })).rejects.toThrow(
      'shop.yml: fields.price.column: the source has no column "Preis"',
    );
  });

  it('joins columns, lists columns, applies constants and forced decimal commas', async () => {
    const mapping = parseMapping(
      [
        'fields:',
        '  sku: ref',
        '  name: { columns: [name, variant], join: " - " }',
        '  images: { columns: [img1, img2], transform: [list] }',
        '  price: { column: preis, transform: [decimal-comma] }',
        '  brand: { constant: Acme }',
        '  pseudo: { column: pseudo, transform: [zero-as-blank, decimal-comma] }',
      ].join('\n'),
      'shop.yml',
      'yaml',
    );
    const rows = await mapRows(
      ['ref', 'name', 'variant', 'img1', 'img2', 'preis', 'pseudo'],
      [
        ['A', 'Shirt', 'Red', 'a.jpg', '', '1.299', '0'],
        ['B', 'Cap', '', '', '', '12,5', '9,98'],
      ],
      { mapping },
    );
    expect(rows[0]).toMatchObject({
      kind: 'upsert',
      fields: { sku: 'A', name: 'Shirt - Red', images: ['a.jpg'], price: 1299, brand: 'Acme' },
    });
    expect(rows[0]).not.toHaveProperty('fields.pseudo');
    expect(rows[1]).toMatchObject({ fields: { name: 'Cap', price: 12.5, pseudo: 9.98 } });
  });

  it('adds to a preset, and null removes a preset field', async () => {
    const mapping = parseMapping(
      'preset: magento\nfields:\n  name: null\n  color: colour\n',
      'm.yml',
      'yaml',
    );
    const rows = await mapRows(
      ['sku', 'product_type', 'name', 'price', 'colour'],
      [['S1', 'simple', 'N', '5', 'red']],
      {
        mapping,
      },
    );
    expect(rows[0]).toMatchObject({ kind: 'upsert', fields: { sku: 'S1', price: 5, color: 'red' } });
    expect(rows[0]).not.toHaveProperty('fields.name');
  });
});
