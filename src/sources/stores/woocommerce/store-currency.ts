import { type StoreCurrency, storeCurrencyOf } from '../store-currency.js';
import type { WooRestApi } from './rest-api.js';

/** The store's currency (WooCommerce → Settings → General → Currency), as the REST API v3 gives it. */
export const CURRENT_CURRENCY_PATH = '/data/currencies/current';

/**
 * Every price the REST API gives (`regular_price`, `sale_price`) is in the store's currency,
 * `/data/currencies/current` (`{code, name, symbol}`, WooCommerce 3.5 on). WooCommerce lets a key
 * read it only when the key's user may manage WooCommerce (`manage_woocommerce`, as for the
 * settings): a Read key of an account that may only read products is answered 403
 * (`woocommerce_rest_cannot_view`), and a store older than 3.5 or a plugin that hides the route 404.
 * Neither stops the migration: the prices then go out as numbers, as before, and the summary says
 * once why (store-currency.ts). Any other failure ends the run as a page's would.
 */
export async function readWooCurrency(api: WooRestApi): Promise<StoreCurrency> {
  const answer = await api.object(CURRENT_CURRENCY_PATH, [403, 404]);
  if (answer.status === 403)
    return {
      unread: `403 on ${CURRENT_CURRENCY_PATH}: the key's user may read products but not the store's settings`,
    };
  if (answer.status === 404)
    return { unread: `404 on ${CURRENT_CURRENCY_PATH}: WooCommerce before 3.5, or a plugin hides it` };
  const code = (answer.value as { code?: unknown } | null)?.code;
  return storeCurrencyOf(code, `${CURRENT_CURRENCY_PATH}`);
}
