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
 *
 * Positions alone cannot tell a store that moved items on (some restored from the trash, with their
 * old id, before the read position) from one whose pages are not where `offset` says (a cache or
 * plugin that ignores `offset` answers the first page again and again; one that hides items still
 * counted). So a page that starts further back than the overlap asked (its `shift`) must be matched
 * by X-WP-Total rising as much: a page that gives only items read before with no such rise, or a
 * read that ends with fewer items than X-WP-Total less its rises, ends the read with one line rather
 * than look complete (a restore together with a deletion in the same gap between two pages looks the
 * same: that read too stops, and the next one, run when the store is quiet, reads it whole).
 * `countChecked` false leaves out the end's count (the estimate's read of the variable products,
 * which deactivates nothing: a store whose X-WP-Total does not follow `type` costs no run).
 */
export async function* readById(
  pageAt: PageAt,
  label: string,
  path: string,
  first?: WooPage,
  maxStepsBack = WOO_MAX_STEPS_BACK,
  countChecked = true,
): AsyncGenerator<Record<string, unknown>> {
  let lastId = Number.NEGATIVE_INFINITY;
  // The items up to the last one read, as the store placed them (as last seen): the next page starts
  // on that last one, an overlap of one.
  let reached = 0;
  let offset = 0;
  let back = 0;
  let stepsBack = 0;
  let handed = 0;
  // X-WP-Total of the last page that joined, and how much it rose over the read (items added).
  let total: number | null = null;
  let rises = 0;
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
      offset = Math.max(0, reached - 1 - back);
      continue;
    }
    back = 0;
    const fresh = page.items.filter((_, i) => (ids[i] as number) > lastId);
    // Items read before that this page holds beyond the overlap asked: items put before the read
    // position since the last page (restored ones), which X-WP-Total rose by, or a page not at `offset`.
    const shift = offset + ids.length - fresh.length - reached;
    const rose = page.total !== null && total !== null ? Math.max(0, page.total - total) : 0;
    if (fresh.length === 0 && shift > rose) throw sameAgain(label, path, offset, ids.length);
    if (page.total !== null) {
      rises += rose;
      total = page.total;
    }
    yield* fresh;
    handed += fresh.length;
    if (fresh.length > 0) lastId = ids[ids.length - 1] as number;
    // X-WP-Total, from the same answer: this page reaches the last item. Without it (a proxy may drop
    // it), or past it (a total that counts too few, as a cache may keep an old one: a store never
    // pages past its own count), a page of one item already read: nothing follows the last one.
    const byTotal = page.total !== null && offset + ids.length <= page.total;
    const end = byTotal ? offset + ids.length === page.total : fresh.length === 0 && ids.length < 2;
    if (ids.length === 0 || end) {
      if (countChecked && page.total !== null && handed < page.total - rises)
        throw fewer(label, path, handed, page.total, rises);
      return;
    }
    // A page of one item that brought nothing new would be asked again and again.
    if (fresh.length === 0 && ids.length < 2)
      throw sourceError(label, `${path} came one item a page: its pages cannot be checked to join`);
    reached = offset + ids.length;
    offset = reached - 1;
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

function sameAgain(label: string, path: string, offset: number, items: number) {
  return sourceError(
    label,
    `${path} at offset ${offset} gave only items read before (${items} of them): the store, or a cache ` +
      'or plugin before it, may ignore offset; the read stopped, part read only (--missing deactivates nothing)',
  );
}

function fewer(label: string, path: string, handed: number, total: number, rises: number) {
  const added = rises === 0 ? 'with none added meanwhile' : `${rises} of them added meanwhile`;
  return sourceError(
    label,
    `${path} gave ${handed} items of the ${total} the store counts (X-WP-Total) ${added}: a cache or ` +
      'plugin may change its pages; the read stopped, part read only (--missing deactivates nothing)',
  );
}
