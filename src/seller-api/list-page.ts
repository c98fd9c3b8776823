import { findNextPage, PAGE_PARAMETER } from './pagination.js';
import { isObject, type RemoteRecord, readRecord } from './remote-record.js';

/** Keys under which an API may wrap a list (spec section 4.1 rule 3: the list wrapper is "not shown"). */
export const LIST_WRAPPERS = ['data', 'items', 'products', 'orders', 'results', 'records'] as const;

export type ListPageReading =
  /** `after`: the page after `next`, when the answer tells it (numbered pages up to a known last). */
  { ok: true; records: RemoteRecord[]; next: URL | null; after: URL | null } | { ok: false; problem: string };

/**
 * Reads one answer of a list request: its records and the URL of the next page, if any.
 * Accepts a bare array, an array under a wrapper key (also one level down, `{"data": {"items": […]}}`),
 * and every pagination style of `pagination.ts`. Pure; `problem` is one line for an InvalidResponseError.
 */
export function readListPage(
  body: unknown,
  linkHeader: string | undefined,
  requestUrl: URL,
): ListPageReading {
  const located = locateItems(body);
  if (!located) {
    return {
      ok: false,
      problem: `expected a list: a JSON array, or an object with an array under ${LIST_WRAPPERS.join(', ')}`,
    };
  }
  const records: RemoteRecord[] = [];
  for (const [index, item] of located.items.entries()) {
    const record = readRecord(item);
    if (!record) return { ok: false, problem: `item ${index + 1} of the list has no usable id` };
    records.push(record);
  }
  const pageProblem = pageMismatch(located.containers, requestUrl);
  if (pageProblem) return { ok: false, problem: pageProblem };
  const next = findNextPage(located.containers, linkHeader, requestUrl);
  if (next.kind === 'problem') return { ok: false, problem: next.problem };
  if (next.kind !== 'url') return { ok: true, records, next: null, after: null };
  return { ok: true, records, next: next.url, after: next.after ?? null };
}

interface LocatedItems {
  items: unknown[];
  /** The wrapper objects, outermost first: where pagination metadata may be. */
  containers: Record<string, unknown>[];
}

function locateItems(body: unknown): LocatedItems | null {
  if (Array.isArray(body)) return { items: body, containers: [] };
  if (!isObject(body)) return null;
  for (const key of LIST_WRAPPERS) {
    const value = body[key];
    if (Array.isArray(value)) return { items: value, containers: [body] };
  }
  for (const key of LIST_WRAPPERS) {
    const inner = body[key];
    if (!isObject(inner)) continue;
    for (const innerKey of LIST_WRAPPERS) {
      const value = inner[innerKey];
      if (Array.isArray(value)) return { items: value, containers: [body, inner] };
    }
  }
  return null;
}

/**
 * When we asked for `?page=N` and the answer says it is another page, the API ignores our
 * parameter: following on would read the same page forever or yield its items twice.
 */
function pageMismatch(containers: Record<string, unknown>[], requestUrl: URL): string | null {
  const asked = requestUrl.searchParams.get(PAGE_PARAMETER);
  if (asked === null || !/^\d+$/.test(asked)) return null;
  for (const container of containers) {
    for (const meta of [container, container.meta, container.pagination].filter(isObject)) {
      const reported = meta.current_page ?? meta.currentPage ?? meta.page;
      if (reported === undefined || reported === null || !/^\d+$/.test(String(reported))) continue;
      if (Number(reported) !== Number(asked)) {
        return `asked for page ${asked} but the answer says page ${String(reported)}`;
      }
      return null;
    }
  }
  return null;
}
