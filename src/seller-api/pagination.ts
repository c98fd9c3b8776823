import { isObject } from './remote-record.js';

/**
 * Where the next page is, in every reading we accept (spec section 4.1 rule 4: pagination "not
 * shown"): a next URL in the body, a `Link: <…>; rel="next"` header, or page numbers in the body's
 * metadata. Pure: the containers are the wrapper objects of one answer (outermost first).
 */
export type NextPage =
  /**
   * `after`: the page after `url`, when the pages are numbered up to a last page the answer named:
   * the only reading in which a page's address is known before the page before it has come.
   */
  { kind: 'url'; url: URL; after?: URL } | { kind: 'none' } | { kind: 'problem'; problem: string };

const NEXT_KEYS = ['next', 'next_page_url', 'nextPageUrl', 'next_url', 'nextUrl', 'next_page', 'nextPage'];
const CURRENT_KEYS = ['current_page', 'currentPage', 'page'];
const LAST_KEYS = ['last_page', 'lastPage', 'total_pages', 'totalPages', 'page_count', 'pageCount'];
const TOTAL_KEYS = ['total', 'total_count', 'totalCount', 'total_items', 'totalItems'];
const SIZE_KEYS = ['per_page', 'perPage', 'page_size', 'pageSize', 'limit'];
const HAS_MORE_KEYS = ['has_more', 'hasMore', 'has_next', 'hasNext'];
/** The query parameter we set to ask for page N when the API numbers its pages. */
export const PAGE_PARAMETER = 'page';

export function findNextPage(
  containers: Record<string, unknown>[],
  linkHeader: string | undefined,
  requestUrl: URL,
): NextPage {
  const metas = containers.flatMap(metadataObjects);
  for (const meta of metas) {
    for (const key of NEXT_KEYS) {
      const next = nextFromValue(meta[key], requestUrl);
      if (next) return next;
    }
  }
  const linked = nextFromLinkHeader(linkHeader, requestUrl);
  if (linked) return linked;
  for (const meta of metas) {
    const numbered = nextFromPageNumbers(meta, requestUrl);
    if (numbered) return numbered;
  }
  return { kind: 'none' };
}

/** A container, and the objects inside it where APIs keep pagination. */
function metadataObjects(container: Record<string, unknown>): Record<string, unknown>[] {
  const meta = container.meta;
  const candidates = [
    container,
    meta,
    container.pagination,
    isObject(meta) ? meta.pagination : undefined,
    container.links,
    container._links,
    container.paging,
  ];
  return candidates.filter(isObject);
}

function nextFromValue(value: unknown, requestUrl: URL): NextPage | null {
  if (isObject(value) && typeof value.href === 'string') return nextFromValue(value.href, requestUrl);
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)
    return pageUrl(requestUrl, value);
  if (typeof value !== 'string' || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return pageUrl(requestUrl, Number(value));
  return resolve(value.trim(), requestUrl);
}

/** RFC 8288: `<url>; rel="next"`, several links comma-separated, `rel` may list several types. */
export function nextFromLinkHeader(header: string | undefined, requestUrl: URL): NextPage | null {
  if (!header) return null;
  for (const match of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    const types = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (types.includes('next')) return resolve(match[1] ?? '', requestUrl);
  }
  return null;
}

function nextFromPageNumbers(meta: Record<string, unknown>, requestUrl: URL): NextPage | null {
  const current = firstNumber(meta, CURRENT_KEYS);
  if (current === null) return null;
  const hasMore = HAS_MORE_KEYS.map((key) => meta[key]).find((value) => typeof value === 'boolean');
  let last = firstNumber(meta, LAST_KEYS);
  const total = firstNumber(meta, TOTAL_KEYS);
  const size = firstNumber(meta, SIZE_KEYS);
  if (last === null && total !== null && size !== null && size > 0) last = Math.ceil(total / size);
  if (hasMore === false) return { kind: 'none' };
  if (last === null && hasMore !== true) return null;
  if (last !== null && current >= last) return { kind: 'none' };
  const next = pageUrl(requestUrl, current + 1);
  if (last !== null && current + 2 <= last) next.after = pageUrl(requestUrl, current + 2).url;
  return next;
}

function firstNumber(meta: Record<string, unknown>, keys: string[]): number | null {
  for (const key of keys) {
    const value = meta[key];
    const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
    if (typeof number === 'number' && Number.isSafeInteger(number) && number >= 0) return number;
  }
  return null;
}

function pageUrl(requestUrl: URL, page: number): NextPage & { kind: 'url' } {
  const url = new URL(requestUrl);
  url.searchParams.set(PAGE_PARAMETER, String(page));
  return { kind: 'url', url };
}

/** Relative next URLs resolve against the URL of the page that named them. */
function resolve(reference: string, requestUrl: URL): NextPage {
  try {
    return { kind: 'url', url: new URL(reference, requestUrl) };
  } catch {
    return { kind: 'problem', problem: `the next page link "${reference.slice(0, 200)}" is not a URL` };
  }
}
