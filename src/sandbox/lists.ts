import type { ListShape } from './options.js';

export type ListAnswer =
  | { ok: true; headers: Record<string, string>; body: unknown }
  | { ok: false; message: string };

/**
 * One page of a list in the chosen shape (spec 4.1 rules 3 and 4 leave wrapper and pagination
 * "not shown", so the sandbox can play each common reading):
 * - `page-meta`: `{data, meta: {page, per_page, total, last_page}}`, `?page=N`;
 * - `next-url`: `{items, next}`, `next` an absolute URL with an opaque cursor, or null on the last page;
 * - `link-header`: a bare array, `Link: <…>; rel="next", <…>; rel="last"` while pages remain;
 * - `bare`: a bare array of everything.
 * `items` are in id order; `listUrl` is the absolute URL of the list without query.
 */
export function renderList<T extends { id: number }>(
  items: readonly T[],
  shape: ListShape,
  pageSize: number,
  query: URLSearchParams,
  listUrl: string,
  represent: (item: T) => unknown,
): ListAnswer {
  if (shape === 'bare') return { ok: true, headers: {}, body: items.map(represent) };
  if (shape === 'next-url') return cursorPage(items, pageSize, query, listUrl, represent);

  const page = parsePositiveInteger(query.get('page') ?? '1');
  if (page === null) return { ok: false, message: 'page: must be a positive integer' };
  const lastPage = Math.max(1, Math.ceil(items.length / pageSize));
  const data = items.slice((page - 1) * pageSize, page * pageSize).map(represent);
  if (shape === 'page-meta') {
    const meta = { page, per_page: pageSize, total: items.length, last_page: lastPage };
    return { ok: true, headers: {}, body: { data, meta } };
  }
  const headers: Record<string, string> =
    page < lastPage
      ? { Link: `<${listUrl}?page=${page + 1}>; rel="next", <${listUrl}?page=${lastPage}>; rel="last"` }
      : {};
  return { ok: true, headers, body: data };
}

function cursorPage<T extends { id: number }>(
  items: readonly T[],
  pageSize: number,
  query: URLSearchParams,
  listUrl: string,
  represent: (item: T) => unknown,
): ListAnswer {
  const cursor = query.get('cursor');
  const afterId = cursor === null ? 0 : decodeCursor(cursor);
  if (afterId === null) return { ok: false, message: 'cursor: not a cursor this API gave' };
  const start = firstIndexAfter(items, afterId);
  const page = items.slice(start, start + pageSize);
  const last = page.at(-1);
  const next = last && start + pageSize < items.length ? `${listUrl}?cursor=${encodeCursor(last.id)}` : null;
  return { ok: true, headers: {}, body: { items: page.map(represent), next } };
}

/** Binary search: items are sorted by id, and a list may hold a million. */
function firstIndexAfter(items: readonly { id: number }[], afterId: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((items[middle]?.id ?? 0) <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Opaque on purpose: a client must follow `next`, not build its own page URLs. */
function encodeCursor(id: number): string {
  return Buffer.from(`after:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): number | null {
  const match = /^after:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

export function parsePositiveInteger(text: string): number | null {
  return /^[1-9]\d{0,15}$/.test(text) ? Number(text) : null;
}
