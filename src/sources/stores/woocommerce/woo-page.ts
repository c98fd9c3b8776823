/** One page of a collection of a WooCommerce store's REST API v3, as rest-api.ts reads it. */
export interface WooPage {
  items: Array<Record<string, unknown>>;
  /** `X-WP-TotalPages`, when the store sends it. */
  totalPages: number | null;
  /** `X-WP-Total`: the items of the whole collection, when the store sends it. */
  total: number | null;
  /** The `Link` header's `rel="next"`, when the store sends it. */
  next: string | null;
}
