import { SecretForms } from '../../secret-forms.js';
import type { OpenedSource } from '../types.js';
import { credentialValues } from './credentials.js';
import { readShop } from './shopify/read-shop.js';
import type { StoreRows } from './store-rows.js';
import { storeSource } from './store-rows.js';
import { parseStoreSource } from './store-url.js';
import type { StoreReadOptions } from './types.js';

/**
 * Opens `shopify://…` or `woocommerce://…`: the store's catalog read through its own API. Whatever
 * the store's answers put in a message (an error while opening or half way through the rows, a
 * progress line, a detection) leaves here with the store's credentials redacted: the readers
 * redact what they quote, and this catches what they did not foresee.
 */
export async function openStore(source: string, options: StoreReadOptions): Promise<OpenedSource> {
  const store = parseStoreSource(source, options.allowInsecure);
  const secrets = new SecretForms(credentialValues(store.platform, options.env, options.credentials));
  const onProgress = options.onProgress;
  const guarded: StoreReadOptions = {
    ...options,
    ...(onProgress ? { onProgress: (line: string) => onProgress(secrets.redact(line)) } : {}),
  };
  try {
    const rows = await readRows(store, guarded);
    return await storeSource({
      ...rows,
      detections: rows.detections.map((line) => secrets.redact(line)),
      rows: scrubbed(rows.rows, secrets),
    });
  } catch (error) {
    throw secrets.scrub(error);
  }
}

async function readRows(
  store: ReturnType<typeof parseStoreSource>,
  options: StoreReadOptions,
): Promise<StoreRows> {
  if (store.platform === 'shopify') return readShop(store, options);
  const { readWooStore } = await import('./woocommerce/read-store.js');
  return readWooStore(store, options);
}

/** The rows as they come; a read that fails half way fails with its message redacted. */
async function* scrubbed(
  rows: AsyncGenerator<Record<string, string>>,
  secrets: SecretForms,
): AsyncGenerator<Record<string, string>> {
  try {
    yield* rows;
  } catch (error) {
    throw secrets.scrub(error);
  }
}
