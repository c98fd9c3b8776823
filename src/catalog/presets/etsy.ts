import { splitList } from '../fields.js';
import { put, slug } from './columns.js';
import { fromId, fromName, type KeyDerivation } from './key-derivation.js';
import type { Draft, Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';

/**
 * Etsy "Download Data" listings export. Its SKU column is often empty and it has no listing id, so
 * the key is the SKU, else `etsy:<LISTING_ID>` where present, else `etsy:<title slug>` (said in a
 * note: renaming a listing then makes a new product). A derived key only matches the listing: it
 * is not sent as the product's sku. Variations stay one listing: the export has
 * one price per listing.
 */
export const etsy: Preset = {
  name: 'etsy',
  signature: {
    required: [['title'], ['price'], ['currency_code']],
    distinctive: ['image1', 'quantity', 'tags', 'materials', 'variation 1 type', 'sku'],
  },
  decimalStyle: 'dot',
  fields: () => ['sku', 'name', 'description', 'price', 'currency', 'quantity', 'tags', 'images'],
  create(c) {
    const read = {
      sku: c.reader('sku'),
      listingId: c.reader('listing_id', 'listing id'),
      title: c.reader('title'),
      description: c.reader('description'),
      price: c.reader('price'),
      currency: c.reader('currency_code'),
      quantity: c.reader('quantity'),
      tags: c.reader('tags'),
      images: Array.from({ length: 10 }, (_, i) => c.reader(`image${i + 1}`)),
    };
    return oneToOne((record) => {
      const notes: string[] = [];
      const sku = read.sku(record);
      let derivedKey = '';
      let derivedFrom: KeyDerivation | undefined;
      if (sku === '') {
        const listingId = read.listingId(record);
        const titleSlug = slug(read.title(record));
        derivedKey = listingId ? `etsy:${listingId}` : titleSlug ? `etsy:${titleSlug}` : '';
        derivedFrom = listingId
          ? fromId('listing id', listingId)
          : fromName('title', read.title(record), 'SKU', 'listings');
        if (derivedKey !== '')
          notes.push(
            `key derived from the ${listingId ? 'listing id' : 'title'} (no SKU): ${derivedKey}, not sent as sku`,
          );
      }
      const fields: RawFields = {};
      put(fields, 'sku', sku);
      put(fields, 'name', read.title(record));
      put(fields, 'description', read.description(record));
      put(fields, 'price', read.price(record));
      put(fields, 'currency', read.currency(record));
      put(fields, 'quantity', read.quantity(record));
      // The export writes a tag's spaces as underscores (`slow_rising`); the listing shows them as spaces.
      put(
        fields,
        'tags',
        splitList(read.tags(record)).map((tag) => tag.replaceAll('_', ' ')),
      );
      put(
        fields,
        'images',
        read.images.map((image) => image(record)).filter((url) => url !== ''),
      );
      const draft: Draft & { kind: 'product' } = { kind: 'product', record, fields, notes };
      if (derivedKey !== '') {
        draft.derivedKey = derivedKey;
        if (derivedFrom) draft.derivedFrom = derivedFrom;
      }
      const listingId = read.listingId(record);
      if (listingId !== '') draft.platformKey = `etsy:${listingId}`;
      return draft;
    });
  },
};
