import { describe, expect, it } from 'vitest';
import {
  meantField,
  namedFields,
  nearestField,
  readAsLine,
  TOOL_FIELDS,
  unknownFieldLine,
  unknownNames,
} from '../../../src/catalog/field-names.js';
import { notingFieldNames } from '../../../src/sync/listed-fields.js';

describe('field names the options give', () => {
  it('are taken from each option that names product fields, with that option', () => {
    expect(
      namedFields({
        missing: { quantity: 0, status: 'inactive' },
        first: ['price'],
        createOnlyFields: ['barcode'],
        keepRemoteEdits: ['name'],
        fields: ['sku', 'price'],
      }),
    ).toEqual([
      { option: '--missing', name: 'quantity' },
      { option: '--missing', name: 'status' },
      { option: '--first', name: 'price' },
      { option: '--create-only-fields', name: 'barcode' },
      { option: '--keep-remote-edits', name: 'name' },
      { option: '--fields', name: 'sku' },
      { option: '--fields', name: 'price' },
    ]);
  });

  it('--keep-remote-edits all names no field; an option not given names none', () => {
    expect(namedFields({ keepRemoteEdits: ['all'] })).toEqual([]);
    expect(namedFields({ missing: null, first: null })).toEqual([]);
  });

  it.each([
    ['--missing', { missing: { stock: '0' } }],
    ['--first', { first: ['price', 'stock'] }],
    ['--create-only-fields', { createOnlyFields: ['stock'] }],
    ['--keep-remote-edits', { keepRemoteEdits: ['stock'] }],
    ['--fields', { fields: ['sku', 'stock'] }],
  ])('%s stock is unknown to the tool; a field of the source is known', (option, flags) => {
    expect(unknownNames(namedFields(flags), TOOL_FIELDS)).toEqual([{ option, name: 'stock' }]);
    expect(unknownNames(namedFields(flags), [...TOOL_FIELDS, 'stock'])).toEqual([]);
  });

  it('the product fields the presets produce are known, quantity among them', () => {
    expect(TOOL_FIELDS).toEqual(
      expect.arrayContaining(['price', 'sale_price', 'quantity', 'status', 'active']),
    );
    expect(TOOL_FIELDS).not.toContain('stock');
  });
});

describe('the field a user meant', () => {
  it.each([
    ['stock', 'quantity'],
    ['Stock', 'quantity'],
    ['qty', 'quantity'],
    ['title', 'name'],
    ['special_price', 'sale_price'],
    ['ean', 'barcode'],
  ])("%s is another platform's word for %s", (name, field) => {
    expect(nearestField(name, TOOL_FIELDS)).toEqual({ field, otherName: true });
  });

  it.each([
    ['prise', 'price'],
    ['quantiy', 'quantity'],
    ['salePrice', 'sale_price'],
    ['descripton', 'description'],
    ['imags', 'images'],
    // Another platform's word misspelt: `stok` is one edit from `stock`, the quantity.
    ['stok', 'quantity'],
    ['tittle', 'name'],
  ])('%s is nearest in spelling to %s', (name, field) => {
    expect(nearestField(name, TOOL_FIELDS)).toEqual({ field, otherName: false });
  });

  it('a field of the source or of the listed products can be the nearest', () => {
    expect(nearestField('visibel', [...TOOL_FIELDS, 'visible'])).toEqual({
      field: 'visible',
      otherName: false,
    });
  });

  it('says the line with the option, the name, the cause and the field meant', () => {
    expect(unknownFieldLine({ option: '--missing', name: 'stock' }, TOOL_FIELDS, 'no product has it')).toBe(
      '--missing: stock: no product has it; the stock field is quantity',
    );
    expect(unknownFieldLine({ option: '--first', name: 'prise' }, TOOL_FIELDS, 'no product has it')).toBe(
      '--first: prise: no product has it; the nearest field is price',
    );
  });

  it('names an invisible character of the field meant, which printed as it is reads as the name asked', () => {
    expect(
      unknownFieldLine({ option: '--fields', name: 'sku' }, ['\u200bsku', 'name'], 'no such field'),
    ).toBe(
      '--fields: sku: no such field; the nearest field is "\\u200bsku", which starts with an invisible character (U+200B zero width space)',
    );
  });
});

describe('the product field a name that is not one was meant to be', () => {
  it.each([
    // Another platform's word, in any case.
    ['stock', 'quantity', true],
    ['Stock', 'quantity', true],
    ['title', 'name', true],
    // One edit (a letter dropped, added, changed or two swapped), or another case.
    ['quantiy', 'quantity', false],
    ['qunatity', 'quantity', false],
    ['pirce', 'price', false],
    ['nmae', 'name', false],
    ['sale-price', 'sale_price', false],
    ['salePrice', 'sale_price', false],
    ['SKU', 'sku', false],
    ['Quantity', 'quantity', false],
    // A short field: a letter typed twice, or two neighbours swapped.
    ['skuu', 'sku', false],
    ['mpnn', 'mpn', false],
    ['ksu', 'sku', false],
  ])('%s is %s', (name, field, otherName) => {
    expect(meantField(name)).toEqual({ field, otherName });
  });

  // `min (mpn?)`, `uri (url?)`: one letter changed in a short field is mostly another word.
  it.each(['min', 'uri', 'mpm', 'sk', 'nam', 'same', 'tabs'])(
    '%s is none: one letter from a short field',
    (name) => {
      expect(meantField(name)).toBeNull();
    },
  );

  it.each(['sku', 'quantity', 'sale_price', 'material', 'color', 'size', 'style', 'base_price', 'stok'])(
    '%s is none: a product field, or far from every one',
    (name) => {
      expect(meantField(name)).toBeNull();
    },
  );

  // `height` is one letter from `weight`: the hint `weight: height` sent heights as weights, and a
  // mapping file's `height: Höhe` was refused every night.
  it.each(['height', 'Height', 'width', 'depth', 'length', 'colour'])(
    '%s is none: an ordinary attribute word, however near a field it is spelt',
    (name) => {
      expect(meantField(name)).toBeNull();
    },
  );

  // A second price, a second image: the field's name with a number, not a misspelling of it.
  it.each(['sku2', 'price2', 'url2', 'category2', 'barcode2', 'Price 2', 'image_2', 'ean13'])(
    '%s is none: a field (or word) numbered',
    (name) => {
      expect(meantField(name)).toBeNull();
    },
  );

  it.each([
    ['quantiy', 'quantity'],
    ['pirce', 'price'],
    ['descripton', 'description'],
    ['pric3', 'price'],
  ])('%s is still a typo of %s', (name, field) => {
    expect(meantField(name)).toEqual({ field, otherName: false });
  });

  it('gives no nearest field for an attribute word or a numbered field in an option either', () => {
    expect(nearestField('height', TOOL_FIELDS)).toBeNull();
    expect(nearestField('price2', TOOL_FIELDS)).toBeNull();
    expect(nearestField('prise', TOOL_FIELDS)).toEqual({ field: 'price', otherName: false });
  });
});

describe('the field names the listed products show', () => {
  it('are noted while the pages pass on unchanged', async () => {
    const pages = [
      [{ id: '1', fields: { sku: 'A', visible: 'yes' } }],
      [{ id: '2', fields: { sku: 'B', featured: true } }],
    ];
    async function* list() {
      yield* pages;
    }
    const names = new Set<string>();
    const passed = [];
    for await (const page of notingFieldNames(list(), names)) passed.push(page);
    expect(passed).toEqual(pages);
    expect([...names].sort()).toEqual(['featured', 'sku', 'visible']);
  });
});

describe('a named field that is a column this source reads as another field', () => {
  const readAs = new Map([
    ['stock', 'quantity'],
    ['Price', 'price'],
  ]);

  it('is refused in one line naming the option and the field to name instead', () => {
    // Products an older run sent `stock` to still show it: the name would pass, and write `stock: "0"`.
    expect(readAsLine([{ option: '--missing', name: 'stock' }], readAs, ['sku', 'price', 'quantity'])).toBe(
      "--missing: stock: this source's stock column is read as quantity: name quantity",
    );
    expect(
      readAsLine(
        [
          { option: '--first', name: 'price' },
          { option: '--fields', name: 'Price' },
        ],
        readAs,
        ['sku', 'price'],
      ),
    ).toBe("--fields: Price: this source's Price column is read as price: name price");
  });

  it('is let be when the source gives a field of that name too (a mapping file sends it)', () => {
    expect(readAsLine([{ option: '--missing', name: 'stock' }], readAs, ['quantity', 'stock'])).toBeNull();
    expect(readAsLine([{ option: '--missing', name: 'quantity' }], readAs, ['quantity'])).toBeNull();
    expect(readAsLine([{ option: '--missing', name: 'stock' }], new Map(), [])).toBeNull();
  });
});
