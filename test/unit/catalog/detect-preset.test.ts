import { describe, expect, it } from 'vitest';
import { CatalogConfigError, checkPreset, detectPreset } from '../../../src/catalog/index.js';

describe('detectPreset', () => {
  it.each([
    [['Handle', 'Title', 'Variant SKU', 'Variant Price', 'Image Src'], 'shopify'],
    [['ID', 'Type', 'SKU', 'Name', 'Regular price', 'Sale price', 'Parent'], 'woocommerce'],
    [['TITLE', 'DESCRIPTION', 'PRICE', 'CURRENCY_CODE', 'QUANTITY', 'IMAGE1', 'SKU'], 'etsy'],
    [['item_sku', 'item_name', 'parent_child', 'standard_price', 'quantity'], 'amazon'],
    [['TemplateType=fptcustom', 'Version=2021.1', 'TemplateSignature=X'], 'amazon'],
    [['Action', 'Custom label (SKU)', 'Title', 'Buy It Now price', 'Quantity'], 'ebay'],
    [
      ['*Action(SiteID=US|Country=US|Currency=USD|Version=1193)', 'CustomLabel', '*Title', '*StartPrice'],
      'ebay',
    ],
    [['sku', 'store_view_code', 'product_type', 'name', 'price', 'attribute_set_code'], 'magento'],
    [['id', 'title', 'price', 'link', 'image_link', 'availability'], 'google-merchant'],
    [['g:id', 'g:title', 'g:price', 'g:image_link'], 'google-merchant'],
    [['sku', 'name', 'price', 'quantity'], 'generic'],
    [['sku', 'price', 'parent_sku'], 'generic'],
    [[], 'generic'],
  ])('%j is %s', (columns, name) => {
    expect(detectPreset(columns).name).toBe(name);
  });

  it('says which columns it recognised', () => {
    expect(detectPreset(['Handle', 'Title', 'Variant SKU', 'Variant Price']).reason).toBe(
      'preset shopify (detected from columns Handle, Variant Price, Title, Variant SKU)',
    );
    expect(detectPreset(['sku', 'name']).reason).toBe('preset generic (the columns match no known export)');
  });
});

describe('checkPreset', () => {
  it('accepts a preset whose required columns are there, and generic always', () => {
    expect(checkPreset('magento', ['sku', 'product_type'])).toBe('magento');
    expect(checkPreset('generic', ['anything'])).toBe('generic');
  });

  it('refuses a preset whose columns are absent, in one line naming them and the preset that fits', () => {
    expect(() =>
      checkPreset('shopify', ['sku', 'store_view_code', 'product_type', 'attribute_set_code']),
    ).toThrow(
      new CatalogConfigError(
        '--preset shopify: the source has no column "handle", "variant price" (preset magento fits)',
      ),
    );
    expect(() => checkPreset('etsy', ['sku', 'name'])).toThrow(
      /\(no preset fits: try --preset generic or --mapping\)$/,
    );
  });

  it('refuses an unknown preset name', () => {
    expect(() => checkPreset('shopfy', [])).toThrow(
      /^--preset shopfy: unknown preset \(known: generic, shopify/,
    );
  });
});
