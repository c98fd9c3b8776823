import type { OpenedSource } from '../types.js';
import { readShop } from './shopify/read-shop.js';
import { storeSource } from './store-rows.js';
import { parseStoreSource } from './store-url.js';
import type { StoreReadOptions } from './types.js';

/** Opens `shopify://…` or `woocommerce://…`: the store's catalog read through its own API. */
export async function openStore(source: string, options: StoreReadOptions): Promise<OpenedSource> {
  const store = parseStoreSource(source, options.allowInsecure);
  if (store.platform === 'shopify') return storeSource(await readShop(store, options));
  const { readWooStore } = await import('./woocommerce/read-store.js');
  return storeSource(await readWooStore(store, options));
}
