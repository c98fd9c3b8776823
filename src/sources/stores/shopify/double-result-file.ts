/**
 * The oldest Admin API version the double's shop still serves. Shopify supports each stable version
 * for 12 months and serves a request to an unsupported one with the oldest supported version
 * (shopify.dev, "API versioning"). As of 2026-11 (latest stable 2026-10) that is 2026-01.
 */
export const OLDEST_SUPPORTED_VERSION = '2026-01';

/** How a bulk query's JSONL file is laid out, or why `bulkOperationRunQuery` refuses the query. */
export type Grouping = { grouped: boolean } | { refused: string };

/**
 * Whether the file of a `bulkOperationRunQuery` is grouped, after Shopify's changelog:
 * - "Optional groupObjects argument in bulk operations mutations" (2025-06-27, API 2025-07): the
 *   argument exists from 2025-07, `true` by default; before 2025-07 the file is always grouped and the
 *   schema knows no such argument.
 * - "Bulk operations group objects default changed to false" (2025-10-29, API 2026-01): from 2026-01
 *   it is `false` unless the mutation says `groupObjects: true`.
 * `version` is the one the request named; an unsupported one is served as `oldestSupported`.
 */
export function groupingOf(
  version: string,
  groupObjects: boolean | undefined,
  oldestSupported = OLDEST_SUPPORTED_VERSION,
): Grouping {
  const served = version !== 'unstable' && version < oldestSupported ? oldestSupported : version;
  if (served !== 'unstable' && served < '2025-07') {
    if (groupObjects !== undefined)
      return { refused: "Field 'bulkOperationRunQuery' doesn't accept argument 'groupObjects'" };
    return { grouped: true };
  }
  if (groupObjects !== undefined) return { grouped: groupObjects };
  return { grouped: served !== 'unstable' && served < '2026-01' };
}

/** `groupObjects` as the mutation gives it: inline (`groupObjects: true`) or as a variable. */
export function groupObjectsOf(query: string, variables: Record<string, unknown>): boolean | undefined {
  const argument = /\bgroupObjects\s*:\s*(true|false|\$(\w+))/.exec(query);
  if (!argument) return undefined;
  if (argument[2] !== undefined) {
    const value = variables[argument[2]];
    return typeof value === 'boolean' ? value : undefined;
  }
  return argument[1] === 'true';
}

/** A product of the double's shop (double.ts), as far as its file is concerned. */
interface FileProduct {
  id: string;
  variants: object[];
  media?: object[] | undefined;
}

/**
 * The JSONL file (shopify.dev, "Perform bulk operations with the GraphQL Admin API"): each product
 * without its connections, and each of its variants and media as a line naming it in `__parentId`.
 * Grouped, a product's children follow it directly; ungrouped, they do not ("child objects are not
 * placed directly under their parent"): here, every product first, then every child. `brokenLine`:
 * that line (1-based) is not JSON, as in a file damaged on the way.
 */
export function resultFile(products: FileProduct[], grouped: boolean, brokenLine?: number): string {
  const parents: string[] = [];
  const children: string[] = [];
  const lines: string[] = [];
  for (const { variants, media, ...product } of products) {
    const own = [
      ...variants.map((variant) => JSON.stringify({ ...variant, __parentId: product.id })),
      ...(media ?? []).map((item) => JSON.stringify({ ...item, __parentId: product.id })),
    ];
    if (grouped) lines.push(JSON.stringify(product), ...own);
    else {
      parents.push(JSON.stringify(product));
      children.push(...own);
    }
  }
  if (!grouped) lines.push(...parents, ...children);
  if (brokenLine !== undefined && brokenLine <= lines.length) lines[brokenLine - 1] = '{"id": broken';
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
