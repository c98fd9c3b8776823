import { WOO_MAX_PAGES, WOO_MAX_STEPS_BACK } from '../../../defaults.js';
import { sourceError } from '../../source-error.js';
import type { WooPage } from './rest-api.js';

/** Reads the page of a collection that starts `offset` items in, in ascending id; null: the collection is gone. */
export type PageAt = (offset: number) => Promise<WooPage | null>;

/**
 * Every item of a collection (products, a product's variations) exactly once, though the store
 * changes while it is read. WooCommerce pages by position only (`page` or `offset`), so an item
 * deleted before the read position moves every later one a place back (one would never be read),
 * and one added there moves them on (one read twice). Hence:
 * - the items come in ascending id (`orderby=id&order=asc`): an item added gets a higher id than
 *   any other and comes last, where it moves nothing still unread;
 * - each next page starts on the last item read (`offset` = its position), an overlap of one. A
 *   page whose first item is that one, or an earlier one, joins the read: nothing unread lies before
 *   it, and its items past the last one read are the next ones. A page that starts past it means
 *   items before it were deleted meanwhile: the read steps back (1, 2, 4… items, down to the start,
 *   which always joins) and reads again, rather than skip. Items are told apart by id, so an item
 *   moved on by one restored from the trash is never handed on twice.
 * An item that was in the store throughout the read is handed on once; one deleted or added during
 * it, once or not at all. A store that keeps changing under the read past `WOO_MAX_STEPS_BACK`
 * steps back, or that does not order by id, ends the read with one line (a broken source: the run
 * deactivates nothing).
 */
export async function* readById(
  pageAt: PageAt,
  label: string,
  path: string,
  first?: WooPage,
  maxStepsBack = WOO_MAX_STEPS_BACK,
): AsyncGenerator<Record<string, unknown>> {
  let lastId = Number.NEGATIVE_INFINITY;
  // Where the last item read sits in the store (as last seen): the next page starts there.
  let anchor = 0;
  let offset = 0;
  let back = 0;
  let stepsBack = 0;
  let pending = first;
  for (let requests = 0; requests < WOO_MAX_PAGES; requests++) {
    const page = pending ?? (await pageAt(offset));
    pending = undefined;
    if (!page) return;
    const ids = page.items.map((item) => idOf(item, label, path));
    if (ids.some((id, i) => i > 0 && id <= (ids[i - 1] as number)))
      throw sourceError(
        label,
        `${path} did not come in ascending id as asked (orderby=id): a plugin may change the order`,
      );
    const joins = offset === 0 || (ids.length > 0 && (ids[0] as number) <= lastId);
    if (!joins) {
      // Deleted items moved the last one read back: step back, further each time.
      if (++stepsBack > maxStepsBack) throw changing(label, path, stepsBack - 1);
      back = back === 0 ? 1 : back * 2;
      offset = Math.max(0, anchor - back);
      continue;
    }
    back = 0;
    const fresh = page.items.filter((_, i) => (ids[i] as number) > lastId);
    yield* fresh;
    if (fresh.length > 0) lastId = ids[ids.length - 1] as number;
    // X-WP-Total, from the same answer: this page reaches the last item. Without it (a proxy may drop
    // it), a page of one item already read: nothing follows the last one (one page more).
    const end =
      page.total !== null ? offset + ids.length >= page.total : fresh.length === 0 && ids.length < 2;
    if (ids.length === 0 || end) return;
    // A page of one item that brought nothing new would be asked again and again.
    if (fresh.length === 0 && ids.length < 2)
      throw sourceError(label, `${path} came one item a page: its pages cannot be checked to join`);
    anchor = offset + ids.length - 1;
    offset = anchor;
  }
  throw sourceError(label, `${path} took more than ${WOO_MAX_PAGES} pages to read`);
}

function idOf(item: Record<string, unknown>, label: string, path: string): number {
  const id = Number(item.id);
  if (!Number.isSafeInteger(id)) throw sourceError(label, `${path} holds an item without a numeric id`);
  return id;
}

function changing(label: string, path: string, steps: number) {
  return sourceError(
    label,
    `${path} kept changing while it was read (${steps} pages read again after deletions): the read ` +
      'stopped, part read only (--missing deactivates nothing); run again once the store is quiet',
  );
}
