import { basename } from 'node:path';
import { SourceError } from '../sources/index.js';
import {
  isLoopbackDouble,
  isStoreSource,
  parseStoreSource,
  type StoreAddress,
} from '../sources/stores/store-url.js';
import { readStoreHosts } from '../trust-config.js';
import { storeHostRefusal } from '../trust-rules.js';
import { UsageError } from './usage-error.js';

/**
 * A job file is not the operator, and a store it names gets the operator's store credentials (the
 * token, the REST API keys of a `sourceCredentials` NAME): its host must be listed in the
 * environment `env` (CATALOG_SYNC_STORE_HOSTS), as a job's baseUrl must be in CATALOG_SYNC_API_HOSTS,
 * refused in one line before any request. A Shopify token goes only to a shop's myshopify.com host
 * (docs/stores.md: the Admin API is asked there), or to a double on loopback. The command line's
 * own source is trusted and not checked here; a scheduled import's job file is checked against the
 * worker's environment.
 */
export function checkJobStoreSource(source: string, jobPath: string, env: NodeJS.ProcessEnv): void {
  if (!isStoreSource(source)) return;
  const origin = `${basename(jobPath)}: source`;
  let store: StoreAddress;
  try {
    // Only the host matters here; plain HTTP to another host is refused when the store is opened.
    store = parseStoreSource(source, true);
  } catch (error) {
    if (error instanceof SourceError) throw new UsageError(`${origin}: ${error.message}`);
    throw error;
  }
  if (
    store.platform === 'shopify' &&
    !isLoopbackDouble(store) &&
    !store.base.hostname.endsWith('.myshopify.com')
  )
    throw new UsageError(
      `${origin}: ${store.display} is not a shop's myshopify.com host: a job file's Shopify source is ` +
        'shopify://SHOP.myshopify.com (its token goes there)',
    );
  const refusal = storeHostRefusal(store.base.href, readStoreHosts(env));
  if (refusal) throw new UsageError(`${origin}: ${refusal}`);
}
