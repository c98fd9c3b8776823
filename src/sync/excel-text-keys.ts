import type { ProductUpsert } from '../interfaces.js';
import type { KnownProduct } from './id-map.js';
import type { FactReads } from './id-row-facts.js';

/**
 * Upgrading over Excel text keys (docs/sources.md, "Upgrading"). A CSV cell of Excel text,
 * `="00123"`, is read as its text, `00123` (sources/csv-header.ts); an earlier version read it as
 * written, so the products it made have the SKU `="00123"` and the id map records them under that
 * key. A row whose key was so read (ProductUpsert.excelKey) and that found no product under its key
 * finds the one listed or recorded under the key as written: that product is the row's. Its write
 * gives it the clean key, and its record moves to that key (the entry under the old one goes, as a
 * former key's does: RowSyncContext.former), so the next night finds it at once.
 */

/** Run record field: the run's list read listed a product whose key is written as Excel text. */
export const EXCEL_TEXT_LISTED = 'excelTextListed';

/** A row's product found under its key as an earlier version read it (RowLookup.excelText). */
export interface ExcelTextMatch {
  /** The key as the earlier version sent it (`="00123"`). */
  key: string;
  id: string;
  /** The run's match field, as the row's note names it. */
  matchBy: string;
  /** What the id map records of the product under that key, if it does. */
  product?: KnownProduct;
}

/**
 * Whether a listed key is written as Excel text, as an earlier version sent one (`="…`): looked at
 * for each listed product while the list read walks them (list-pages.ts), two characters each.
 */
export function looksLikeExcelText(key: string): boolean {
  return key.charCodeAt(0) === EQUALS && key.charCodeAt(1) === QUOTE;
}

const EQUALS = 0x3d;
const QUOTE = 0x22;

/**
 * For rows that found no product under any form of their key and whose key was read from Excel
 * text: the product the run's index (`listed`: the list read's, which holds every listed key) or
 * else the id map holds under the key as written. Its id goes into `ids`; the matches are returned
 * by row. Nothing is asked when no row of the chunk is such a row (the rows of a source without
 * Excel text never are). After a list read, one HMGET for the chunk, and the id map is asked only
 * for the keys found (once per product: its record moves to the clean key); without one, the id map
 * (a look into one bucket per key, in one round trip).
 */
export async function lookUpExcelText(
  reads: Pick<FactReads, 'redis' | 'keys' | 'runId' | 'idMap' | 'matchBy'>,
  upserts: readonly ProductUpsert[],
  ids: (string | null)[],
  listed: boolean,
): Promise<Map<number, ExcelTextMatch>> {
  const matches = new Map<number, ExcelTextMatch>();
  const asked = upserts.flatMap((upsert, i) =>
    ids[i] === null && upsert.excelKey !== undefined ? [{ i, key: upsert.excelKey }] : [],
  );
  if (asked.length === 0) return matches;
  const keys = asked.map(({ key }) => key);
  const indexing = reads.redis.hmget(reads.keys.keyToId(reads.runId), ...keys);
  let indexed: (string | null)[];
  let known: Map<string, KnownProduct>;
  if (listed) {
    indexed = await indexing;
    const found = keys.filter((_, at) => indexed[at] != null);
    known = found.length > 0 ? await reads.idMap.getMany(found) : new Map();
  } else [known, indexed] = await Promise.all([reads.idMap.getMany(keys), indexing]);
  asked.forEach(({ i, key }, at) => {
    const recorded = known.get(key);
    const id = indexed[at] ?? recorded?.id ?? null;
    if (id === null) return;
    ids[i] = id;
    const match: ExcelTextMatch = { key, id, matchBy: reads.matchBy };
    // The record is the product's only while it names it (not another listed under that key).
    if (recorded?.id === id) match.product = recorded;
    matches.set((upserts[i] as ProductUpsert).row, match);
  });
  return matches;
}

/**
 * The row's note when its product was found under its key as Excel text. `written`: the row's
 * update went out, and sent the key unless `--create-only-fields` kept it from the PUT; else the
 * product still has the old key (a dry run, a write held or failed, `--fields` without the key).
 */
export function excelTextNote(
  match: ExcelTextMatch,
  upsert: ProductUpsert,
  options: { createOnly: ReadonlySet<string> },
  written: boolean,
): string {
  return formerFormNote(match, upsert, options, written, `${match.key} (Excel text)`, '');
}

/**
 * `sku was OLD on the marketplace…: sent as NEW` once the write sent the match field, else `sku is
 * OLD …: matched as NEW`: the note of a row whose product was found under another written form of
 * its key (Excel text here, an invisible edge character: invisible-edge-keys.ts).
 */
export function formerFormNote(
  match: ExcelTextMatch,
  upsert: ProductUpsert,
  options: { createOnly: ReadonlySet<string> },
  written: boolean,
  shown: string,
  why: string,
): string {
  const { matchBy } = match;
  const sent = written && upsert.fields[matchBy] !== undefined && !options.createOnly.has(matchBy);
  return sent
    ? `${matchBy} was ${shown} on the marketplace${why}: sent as ${upsert.key}`
    : `${matchBy} is ${shown} on the marketplace${why}: matched as ${upsert.key}`;
}
