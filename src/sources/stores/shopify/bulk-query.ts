/**
 * The Admin API version asked for when `--source-api-version` does not say: the latest stable one
 * (shopify.dev, "API versioning": each stable version is supported for 12 months; a request to an
 * unsupported one is served by the oldest supported version, so an old default silently reads
 * with whatever that version does). Move it on with Shopify's releases. docs/stores.md names it.
 */
export const SHOPIFY_API_VERSION = '2026-10';

/** `YYYY-MM` or `unstable`: what Shopify's URLs take. */
export function checkApiVersion(version: string): boolean {
  return /^(\d{4}-(01|04|07|10)|unstable)$/.test(version);
}

/**
 * Whether Shopify refuses a second bulk query while one runs, so that the next run joins the one a
 * stopped run left: versions before 2026-01 (shopify.dev, "Perform bulk operations": from 2026-01 an
 * app runs up to five at a time per shop). A shop serves an unsupported version as its oldest.
 */
export function oneBulkQueryAtATime(version: string): boolean {
  return version !== 'unstable' && version < '2026-01';
}

/**
 * The wrong `--source-api-version` as a message quotes it: `"latest"`, `"2025-02"`. A value that is
 * longer, or holds anything but letters, digits, `.` and `-` (`shpat_…`, a consumer key, base64), is
 * not shown: it may be a token pasted into the wrong option, and the message lands in cron's logs.
 */
export function quotedApiVersion(value: string): string {
  if (/^[A-Za-z0-9.-]{1,12}$/.test(value)) return `not "${value}"`;
  return `not the value given (${value.length} characters, not shown: it looks like no version, and may be a secret)`;
}

/**
 * The whole catalog in one bulk operation: each product, then its variants and media images as lines
 * of their own that name it in `__parentId`. Only what the Shopify preset reads is asked for.
 */
export const PRODUCTS_BULK_QUERY = `{
  products {
    edges {
      node {
        id
        handle
        title
        descriptionHtml
        vendor
        productType
        tags
        status
        category { fullName }
        options { name position }
        media {
          edges { node { ... on MediaImage { id image { url } } } }
        }
        variants {
          edges {
            node {
              id
              sku
              price
              compareAtPrice
              barcode
              inventoryQuantity
              selectedOptions { name value }
              image { url }
              inventoryItem { tracked measurement { weight { unit value } } }
            }
          }
        }
      }
    }
  }
}`;

/**
 * Starts the bulk query with its file grouped: each product's variants and images right after it,
 * which lets result-file.ts hold one product at a time. `groupObjects` exists from API 2025-07
 * (default true) and defaults to false from 2026-01 (shopify.dev changelog, "Bulk operations group
 * objects default changed to false"), so it is always said. It is sent whatever version is asked:
 * every version before 2025-07 (which knew no such argument) is out of Shopify's 12 months of
 * support, and Shopify serves it as the oldest supported version, which takes the argument and
 * would otherwise not group. Were it refused, that is one line naming the argument, before any row.
 */
export const RUN_BULK_MUTATION = `mutation RunBulk($query: String!) {
  bulkOperationRunQuery(query: $query, groupObjects: true) {
    bulkOperation { id status }
    userErrors { field message }
  }
}`;

export const POLL_BULK_QUERY = `query Poll($id: ID!) {
  node(id: $id) {
    ... on BulkOperation { id status errorCode objectCount fileSize url partialDataUrl }
  }
}`;

/** The app's most recent bulk query operation, whatever its status, with the query it runs. */
export const CURRENT_BULK_QUERY = `query Current {
  currentBulkOperation(type: QUERY) { id status errorCode objectCount url query createdAt }
}`;

/**
 * A bulk query's text with its layout dropped (comments, spaces, line breaks), so that an operation
 * Shopify reports is known as this tool's products query however the text was laid out.
 */
export function bulkQueryShape(query: string): string {
  return query
    .replace(/#[^\n\r]*/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{}():,])\s*/g, '$1')
    .trim();
}
