import {
  invisibleEdge,
  invisibleEdgeForms,
  shownKey,
  withoutInvisibleEdges,
} from '../catalog/invisible-text.js';
import type { ProductUpsert } from '../interfaces.js';
import { type ExcelTextMatch, formerFormNote } from './excel-text-keys.js';
import type { KnownProduct } from './id-map.js';
import type { FactReads } from './id-row-facts.js';

/**
 * Upgrading over keys with an invisible character at their edge (docs/sources.md). Such a key
 * (`\u200bZW-1`) is refused now (catalog/invisible-text.ts), and the refusal tells the seller to
 * remove the character; an earlier version sent it as written, so the marketplace has the product
 * under it and the id map records it so. The clean row (`ZW-1`), finding no product under its key,
 * finds that one: it is the row's. Its write gives it the clean SKU, and its record moves to the
 * clean key (as a former key's does: RowSyncContext.former), so the next night finds it at once.
 * The match has the shape of the Excel text one (excel-text-keys.ts): the same write moves it.
 */

/** Run record field: the run's list read listed a key with an invisible edge character. */
export const INVISIBLE_EDGE_LISTED = 'invisibleEdgeListed';

/** A listed key's pair for the run's clean-key index (keys.invisibleEdgeKeys), or undefined. */
export function cleanKeyPair(key: string): [string, string] | undefined {
  if (invisibleEdge(key) === undefined) return undefined;
  const clean = withoutInvisibleEdges(key);
  return clean === '' ? undefined : [clean, key];
}

/**
 * For rows that found no product under any form of their key: the product listed (`listed`: the
 * list read indexed such keys under their clean form, keys.invisibleEdgeKeys) or else recorded in
 * the id map under the key with one invisible character before or after it. Its id goes into `ids`.
 * After a list read, one HMGET for the chunk, and more only for a key found; without one (an
 * `--incremental` run relying on the record), one id map read of each such row's forms: only rows
 * about to be created ask.
 */
export async function lookUpInvisibleEdges(
  reads: Pick<FactReads, 'redis' | 'keys' | 'runId' | 'idMap' | 'matchBy'>,
  upserts: readonly ProductUpsert[],
  ids: (string | null)[],
  listed: boolean,
): Promise<Map<number, ExcelTextMatch>> {
  const matches = new Map<number, ExcelTextMatch>();
  const open = upserts.flatMap((upsert, i) => (ids[i] === null && upsert.key !== '' ? [i] : []));
  if (open.length === 0) return matches;
  const found = (i: number, key: string, id: string, recorded: KnownProduct | undefined) => {
    ids[i] = id;
    const match: ExcelTextMatch = { key, id, matchBy: reads.matchBy };
    // The record is the product's only while it names it (not another listed under that key).
    if (recorded?.id === id) match.product = recorded;
    matches.set((upserts[i] as ProductUpsert).row, match);
  };
  if (listed) {
    const clean = open.map((i) => (upserts[i] as ProductUpsert).key);
    const originals = await reads.redis.hmget(reads.keys.invisibleEdgeKeys(reads.runId), ...clean);
    const hits = open.flatMap((i, at) => (originals[at] ? [{ i, key: originals[at] as string }] : []));
    if (hits.length === 0) return matches;
    const keys = hits.map(({ key }) => key);
    const [indexed, known] = await Promise.all([
      reads.redis.hmget(reads.keys.keyToId(reads.runId), ...keys),
      reads.idMap.getMany(keys),
    ]);
    hits.forEach(({ i, key }, at) => {
      const id = indexed[at];
      if (id) found(i, key, id, known.get(key));
    });
    return matches;
  }
  const asked = open.flatMap((i) =>
    invisibleEdgeForms((upserts[i] as ProductUpsert).key).map((key) => ({ i, key })),
  );
  const known = await reads.idMap.getMany(asked.map(({ key }) => key));
  for (const { i, key } of asked) {
    const recorded = known.get(key);
    if (ids[i] === null && recorded) found(i, key, recorded.id, recorded);
  }
  return matches;
}

/**
 * The row's note when its product was found under its key with an invisible edge character.
 * `written`: as excelTextNote's (the update went out and sent the key).
 */
export function invisibleEdgeNote(
  match: ExcelTextMatch,
  upsert: ProductUpsert,
  options: { createOnly: ReadonlySet<string> },
  written: boolean,
): string {
  const edge = invisibleEdge(match.key);
  const at = edge?.where === 'ends' ? 'end' : 'start';
  const why = ` (an invisible ${edge?.code} at its ${at})`;
  return formerFormNote(match, upsert, options, written, `"${shownKey(match.key)}"`, why);
}
