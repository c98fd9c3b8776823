import { describe, expect, it } from 'vitest';
import { CatalogConfigError, checkPreset, createMapper } from '../../../src/catalog/index.js';

// Under a platform preset a mistyped header cell was never read, and nothing said so; a mistyped
// required column was read as a generic file, or refused without a word of the column.
describe('the mapper under a platform preset', () => {
  const shopify = ['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Variant Inventory Qtty'];

  it('refuses a header cell it would leave unread, one typo from a column it reads', () => {
    expect(() => createMapper({ columns: shopify })).toThrow(CatalogConfigError);
    expect(() => createMapper({ columns: shopify, preset: 'shopify' })).toThrow(
      '"Variant Inventory Qtty" (near "Variant Inventory Qty")',
    );
  });

  it('lets be a column a mapping file over the preset reads', () => {
    const mapping = {
      origin: 'qty.yml',
      preset: 'shopify' as const,
      fields: { quantity: { column: 'Variant Inventory Qtty' } },
    };
    expect(createMapper({ columns: shopify, mapping }).preset).toBe('shopify');
  });

  it('the generic preset keeps its own hint (a summary line), and refuses nothing', () => {
    expect(createMapper({ columns: ['sku', 'name', 'price', 'quantiy'] }).preset).toBe('generic');
  });

  it('a required column mistyped is named, detected or named with --preset', () => {
    const columns = ['Handle', 'Title', 'Variant SKU', 'Variant Pirce'];
    expect(() => createMapper({ columns })).toThrow(
      'preset shopify (not detected: a column it requires mistyped): "Variant Pirce" (near "Variant Price"): rename it "Variant Price", or give --preset generic to read the file as it is',
    );
    expect(() => checkPreset('shopify', columns)).toThrow(
      '--preset shopify: the source has no column "variant price": "Variant Pirce" (near "Variant Price"): rename it "Variant Price"',
    );
    // Read as it is when the user says so.
    expect(createMapper({ columns, preset: 'generic', matchBy: 'Variant SKU' }).preset).toBe('generic');
  });

  it('a header that carries no preset’s signature is generic, as before', () => {
    expect(createMapper({ columns: ['sku', 'Handel', 'Variant Pirce'] }).preset).toBe('generic');
  });
});
