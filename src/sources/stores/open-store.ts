import { SecretForms } from '../../secret-forms.js';
import { SourceError } from '../source-error.js';
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
 * redact what they quote, and this catches what they did not foresee. Closing the source (an
 * interrupt: the run closes it) gives the read up at once: the wait or the call under way ends then,
 * not when the store's Retry-After or its answer would have let it.
 */
export async function openStore(source: string, options: StoreReadOptions): Promise<OpenedSource> {
  const store = parseStoreSource(source, options.allowInsecure);
  const secrets = new SecretForms(credentialValues(store.platform, options.env, options.credentials));
  const onProgress = options.onProgress;
  const onWait = options.onWait;
  const closed = new AbortController();
  const guarded: StoreReadOptions = {
    ...options,
    signal: options.signal ? AbortSignal.any([options.signal, closed.signal]) : closed.signal,
    ...(onProgress ? { onProgress: (line: string) => onProgress(secrets.redact(line)) } : {}),
    ...(onWait ? { onWait: (line: string) => onWait(secrets.redact(line)) } : {}),
  };
  try {
    const rows = await readRows(store, guarded);
    return await storeSource(
      {
        ...rows,
        detections: rows.detections.map((line) => secrets.redact(line)),
        rows: scrubbed(rows.rows, secrets),
      },
      // One line, should a caller ever show it: the run says the interrupt in its own words.
      () => closed.abort(new SourceError(`${store.display}: the read was given up before its end`)),
    );
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
