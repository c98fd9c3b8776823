import { type StoreCurrency, storeCurrencyOf } from '../store-currency.js';
import type { ShopifyAdminApi } from './admin-api.js';

/**
 * The shop's currency: `Shop.currencyCode`, "the three letter code for the currency that the shop
 * sells in" (Admin GraphQL API), the currency every variant's `price` and `compareAtPrice` are in.
 * Any token reads it (no scope beyond the shop's own). One small query before the bulk operation;
 * a refused token ends the run here as it would there.
 */
export const SHOP_CURRENCY_QUERY = `query ShopCurrency {
  shop { currencyCode }
}`;

export async function readShopCurrency(api: ShopifyAdminApi): Promise<StoreCurrency> {
  const answer = await api.query<{ shop?: { currencyCode?: unknown } | null }>(SHOP_CURRENCY_QUERY);
  return storeCurrencyOf(answer?.shop?.currencyCode, "Shopify's shop { currencyCode }");
}
