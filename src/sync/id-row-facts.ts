import type { Redis } from 'ioredis';
import { comparableKey, otherForms } from '../catalog/key-forms.js';
import type { ProductUpsert } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import type { IndexedProduct } from './diff.js';
import type { IdMap, KnownProduct } from './id-map.js';
import {
  type IdRowFacts,
  idRowRefusal,
  keyInEntry,
  type ResolvedRow,
  rewrittenRefusal,
  sharedProductRefusals,
} from './row-refusals.js';

/** Where the facts around a row's `id` column are read. */
export interface FactReads {
  redis: Redis;
  keys: RedisKeys;
  runId: string;
  idMap: IdMap;
  matchBy: string;
}

/** A chunk's row with what its look-up already read (remote-index.ts). */
export interface LookedUpRow extends ResolvedRow {
  /** The product the run's index holds under the row's key (keyToId), or null. */
  indexedUnder: string | null;
  /** The product the id map records under the row's key, or null. */
  recordedUnder: string | null;
  /** The run's index holds an entry for the product the row resolved to. */
  indexed: boolean;
}

/** What a chunk's look-up read, by the rows' order (remote-index.ts, `lookup`). */
export interface LookedUp {
  /** The product each row resolved to. */
  ids: readonly (string | null)[];
  /** The product the run's index holds under each row's key. */
  idsByKey: readonly (string | null)[];
  known: ReadonlyMap<string, KnownProduct>;
  byId: ReadonlyMap<string, IndexedProduct>;
  createdHere: readonly boolean[];
}

export function lookedUpRows(
  upserts: readonly ProductUpsert[],
  read: LookedUp,
  matchBy: string,
): LookedUpRow[] {
  return upserts.map((upsert, i) => {
    const id = read.ids[i] ?? null;
    const entry = id === null ? undefined : read.byId.get(id);
    return {
      row: upsert.row,
      key: upsert.key,
      ...(upsert.id === undefined ? {} : { idColumn: upsert.id }),
      id,
      byIndexedKey: read.idsByKey[i] != null,
      createdByThisRun: read.createdHere[i] === true,
      shownKey: keyInEntry(entry?.values, matchBy),
      indexedUnder: read.idsByKey[i] ?? null,
      recordedUnder: read.known.get(upsert.key)?.id ?? null,
      indexed: entry !== undefined,
    };
  });
}

/**
 * The rows of a chunk that must not be written (row-refusals.ts), each with its reason. Rows
 * without an `id` column cost no Redis command here: what they are checked against was read by
 * the look-up already. `fromRecord`: an `--incremental` run that read no product, which decides
 * from the id map alone.
 */
export async function chunkRefusals(
  reads: FactReads,
  rows: readonly LookedUpRow[],
  fromRecord: boolean,
): Promise<Map<number, string>> {
  const refused = new Map<number, string>();
  const idRows = rows.filter((row) => row.idColumn !== undefined);
  const facts = idRows.length > 0 ? await idRowFacts(reads, idRows, fromRecord) : new Map();
  for (const row of rows) {
    const known = facts.get(row.row);
    const reason = known ? idRowRefusal(row, known, reads.matchBy) : rewrittenRefusal(row, reads.matchBy);
    if (reason !== null) refused.set(row.row, reason);
  }
  const others = rows.filter((row) => !refused.has(row.row));
  for (const [row, reason] of sharedProductRefusals(others)) refused.set(row, reason);
  return refused;
}

/**
 * For each row with an `id` column: the named product's key, another product under the row's key,
 * and whether the source holds a row for the named product's key. A full run trusts its list read
 * (keys the API does not show were filled from the id map's reverse); an `--incremental` run the
 * id map, where a key names another product only while that product's record names the key back
 * (a rename through the id column leaves the old key's entry behind).
 */
async function idRowFacts(
  reads: FactReads,
  rows: readonly LookedUpRow[],
  fromRecord: boolean,
): Promise<Map<number, IdRowFacts>> {
  const where = fromRecord ? "in this tool's record" : 'on the marketplace';
  const current = new Map(rows.map((row) => [row.row, row.shownKey]));
  const other = new Map(rows.map((row) => [row.row, fromRecord ? row.recordedUnder : row.indexedUnder]));
  await underOtherForms(reads, rows, other, fromRecord);

  // The named product's key where its entry does not show one: the list read's, or the record's.
  const unshown = rows.filter((row) => row.shownKey === null && (fromRecord || row.indexed));
  const idsOfOthers = fromRecord ? rows.flatMap((row) => otherThan(row, other)) : [];
  const ids = [...new Set([...unshown.map((row) => row.idColumn as string), ...idsOfOthers])];
  const keyOf = ids.length === 0 ? new Map<string, string>() : await keysOfIds(reads, ids, fromRecord);
  for (const row of unshown) current.set(row.row, keyOf.get(row.idColumn as string) ?? null);
  if (fromRecord) {
    for (const row of rows) {
      const id = other.get(row.row);
      const back = id ? keyOf.get(id) : undefined;
      if (id !== row.idColumn && (back === undefined || comparableKey(back) !== comparableKey(row.key)))
        other.set(row.row, null);
    }
  }

  const renaming = rows.flatMap((row) => {
    const key = current.get(row.row);
    return key && comparableKey(key) !== comparableKey(row.key) ? [{ row: row.row, key }] : [];
  });
  const inSource = await sourceHolds(reads, renaming);
  return new Map(
    rows.map((row) => [
      row.row,
      {
        current: current.get(row.row) ?? null,
        other: other.get(row.row) ?? null,
        indexed: row.indexed,
        currentInSource: inSource.has(row.row),
        where,
      },
    ]),
  );
}

function otherThan(row: LookedUpRow, other: Map<number, string | null>): string[] {
  const id = other.get(row.row);
  return id && id !== row.idColumn ? [id] : [];
}

/** A key written in another Unicode form than the product's (catalog/key-forms.ts) names it too. */
async function underOtherForms(
  reads: FactReads,
  rows: readonly LookedUpRow[],
  other: Map<number, string | null>,
  fromRecord: boolean,
): Promise<void> {
  const asked = rows.flatMap((row) =>
    other.get(row.row) ? [] : otherForms(row.key).map((form) => ({ row: row.row, form })),
  );
  if (asked.length === 0) return;
  const forms = asked.map(({ form }) => form);
  const found = fromRecord
    ? await reads.idMap.getMany(forms).then((known) => forms.map((form) => known.get(form)?.id ?? null))
    : await reads.redis.hmget(reads.keys.keyToId(reads.runId), ...forms);
  asked.forEach(({ row }, i) => {
    const id = found[i];
    if (id && !other.get(row)) other.set(row, id);
  });
}

async function keysOfIds(reads: FactReads, ids: string[], fromRecord: boolean): Promise<Map<string, string>> {
  if (fromRecord) return reads.idMap.keysOfIds(ids);
  const keys = await reads.redis.hmget(reads.keys.idToKey(reads.runId), ...ids);
  return new Map(ids.flatMap((id, i) => (keys[i] ? [[id, keys[i] as string]] : [])));
}

/**
 * The rows whose named product's present key the source holds too (in either Unicode form), or reads
 * in a row left out as not sold (keys.unsoldKeys): that row still names the product by that key.
 */
async function sourceHolds(reads: FactReads, asked: { row: number; key: string }[]): Promise<Set<number>> {
  const held = new Set<number>();
  if (asked.length === 0) return held;
  const forms = asked.flatMap(({ row, key }) => [key, ...otherForms(key)].map((form) => ({ row, form })));
  const names = forms.map(({ form }) => form);
  const [inSource, unsold] = await Promise.all([
    reads.redis.smismember(reads.keys.sourceKeys(reads.runId), ...names),
    reads.redis.smismember(reads.keys.unsoldKeys(reads.runId), ...names),
  ]);
  forms.forEach(({ row }, i) => {
    if (inSource[i] === 1 || unsold[i] === 1) held.add(row);
  });
  return held;
}
