import { formatBytes } from '../../limits.js';
import { sourceError } from '../../source-error.js';
import { StoreAnswerTooLong } from '../http-call.js';
import type { WooPage } from './woo-page.js';

/** One page of a collection under `/wp-json/wc/v3` with `query` (`per_page` 100 unless it says). */
export type PageOf = (path: string, query: Record<string, string>) => Promise<WooPage | null>;

const MIB = 1024 * 1024;

/**
 * A page whose answer is longer than an answer may be (`maxBytes`), as 100 products with images
 * pasted into their descriptions make it. Asking again cannot help, so it is read in parts: its ids
 * alone (`_fields=id`, the same page: a few bytes an item), then its items by id (`include`, in
 * WooCommerce's documentation of `GET /products` and `/products/<id>/variations`), half of them
 * at a time, halving a part again while its answer is too long. The page handed back is the same
 * page (the same place, ids and X-WP-Total), so read-by-id.ts checks it as any other. Only one item
 * too long on its own fails, naming it and `--max-record-bytes`, which lifts the bound.
 */
export async function pageInParts(
  pageOf: PageOf,
  path: string,
  query: Record<string, string>,
  label: string,
  maxBytes: number,
): Promise<WooPage | null> {
  const index = await pageOf(path, { ...query, _fields: 'id' });
  if (!index) return null;
  const ids = index.items.map((item) => Number(item.id));
  if (!ids.every(Number.isSafeInteger))
    throw sourceError(label, `${path} holds an item without a numeric id`);
  const { offset: _offset, page: _page, ...byId } = query;
  const read = new Map<number, Record<string, unknown>>();
  const parts = halves(ids);
  for (let part = parts.shift(); part; part = parts.shift()) {
    try {
      const answer = await pageOf(path, { ...byId, include: part.join(','), per_page: String(part.length) });
      if (!answer) return null;
      for (const item of answer.items) read.set(Number(item.id), item);
    } catch (error) {
      if (!(error instanceof StoreAnswerTooLong)) throw error;
      if (part.length === 1) throw tooLong(label, path, part[0] as number, maxBytes);
      parts.unshift(...halves(part));
    }
  }
  // An item deleted since its id was read is left out, as one deleted before its page would be.
  return {
    ...index,
    items: ids.flatMap((id) => {
      const item = read.get(id);
      return item ? [item] : [];
    }),
  };
}

function halves(ids: number[]): number[][] {
  const half = Math.ceil(ids.length / 2);
  return [ids.slice(0, half), ids.slice(half)].filter((part) => part.length > 0);
}

function tooLong(label: string, path: string, id: number, maxBytes: number) {
  const what = path === '/products' ? `product ${id}` : `item ${id} of ${path}`;
  return sourceError(
    label,
    `${what} is longer than ${formatBytes(maxBytes)} as the REST API gives it (an image pasted into its description?): ` +
      `--max-record-bytes ${Math.ceil((2 * maxBytes) / MIB)}MiB lets it be read`,
  );
}
