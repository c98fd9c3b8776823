import type { Redis } from 'ioredis';
import { edgeSpacedKey, listedKeyWords } from '../catalog/key-forms.js';
import type { RowOutcome } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import { SAME_KEY_NOTE } from '../runs/run-scripts.js';
import type { RunStore } from '../runs/run-store.js';
import { IdMap } from '../sync/id-map.js';
import { noteUnrecorded } from '../sync/incremental.js';
import { decodeEntry } from '../sync/index-entry.js';
import { cleanKeyPair } from '../sync/invisible-edge-keys.js';
import { alreadySo, type MissingValues } from './missing-values.js';

interface ScanDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * What the scan found for `--missing`: the managed products the run's read listed (not those it
 * created: `--max-missing` weighs the products gone against the catalog as it was), and those to
 * deactivate.
 */
export interface MissingFigures {
  managed: number;
  due: number;
}

/**
 * Goes through the run's snapshot of the seller's products once: a product no source row touched is
 * `missing`, unless `deactivate` is given and this tool manages it (the seller's id map holds it, not
 * as listed only: managedOnly):
 * then it is due for deactivation (keys.deactivations), or, already showing the `--missing` values,
 * settles `deactivate` with note `already so` and costs no request.
 * With `countOnly` (the guards' verdict, before any write: missing-guard.ts) it records nothing
 * (no line, no due product, no note of the record) and only counts.
 */
export async function scanMissing(
  deps: ScanDeps,
  runId: string,
  sellerRef: string,
  deactivate: MissingValues | null,
  /** The run's match field's space (match-space.ts): the products managed under that field. */
  space: string,
  /** The run's match field, as a note names it (`sku`). */
  matchBy: string,
  countOnly = false,
): Promise<MissingFigures> {
  const { redis, keys } = deps;
  const idMap = new IdMap(redis, keys, sellerRef, space);
  const figures: MissingFigures = { managed: 0, due: 0 };
  // HSCAN may return an entry twice: counted once (the recorded scan counts its due hash instead).
  const counted = new Set<string>();
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(keys.products(runId), cursor, 'COUNT', 500);
    cursor = next;
    const ids: string[] = [];
    const listed: string[] = [];
    for (let i = 0; i < flat.length; i += 2) {
      ids.push(flat[i] as string);
      listed.push(flat[i + 1] as string);
    }
    if (ids.length === 0) continue;
    // Most listed products were touched by a row (all of them, in a run that created them): only the
    // others are looked up further, so a page of touched products costs one command, not five.
    const [touched, recordedKeys] = await Promise.all([
      redis.smismember(keys.touched(runId), ...ids),
      deactivate ? idMap.keysOfIds(ids) : new Map<string, string>(),
    ]);
    const managedKeys = await managedOnly(idMap, recordedKeys);
    const touchedManaged = ids.filter((id, i) => touched[i] === 1 && managedKeys.has(id));
    const created = await createdByRun(redis, keys, runId, touchedManaged);
    for (const id of ids) if (managedKeys.has(id) && !created.has(id)) figures.managed++;
    const open = ids.flatMap((id, i) => (touched[i] === 1 ? [] : [{ id, listed: listed[i] as string }]));
    if (open.length === 0) continue;
    const openIds = open.map((product) => product.id);
    const matchKeys = await redis.hmget(keys.idToKey(runId), ...openIds);
    const keyed = matchKeys.map((key, i) => key ?? recordedKeys.get(openIds[i] as string) ?? '');
    const placeholders = keyed.map((key) => key || '\u0000');
    // Listed under a key with an invisible edge character (`\u200bZW-1`): the source's clean row
    // (ZW-1) finds it and cleans it (invisible-edge-keys.ts), so the source holds it under that key
    // too, as under its own: a row held, refused or failed leaves it be. Asked in the same command.
    const cleanKeys = keyed.flatMap((key) => cleanKeyPair(key)?.[0] ?? []);
    const [inSourceOrClean, owners, recorded] = await Promise.all([
      redis.smismember(keys.sourceKeys(runId), ...placeholders, ...cleanKeys),
      redis.hmget(keys.keyToId(runId), ...placeholders),
      idMap.getMany(keyed.filter((key) => key !== '')),
    ]);
    // Listed under a key the id map lacks (made on the marketplace): the record an --incremental
    // run relies on does not hold it, and that run would create it (incremental.ts).
    if (!countOnly && keyed.some((key) => key !== '' && !recorded.has(key)))
      await noteUnrecorded(redis, keys, runId);
    const inSource = inSourceOrClean.slice(0, keyed.length);
    let clean = keyed.length;
    const cleanHeld = keyed.map((key) => cleanKeyPair(key) !== undefined && inSourceOrClean[clean++] === 1);
    const lines: RowOutcome[] = [];
    const due: string[] = [];
    open.forEach(({ id, listed: entry }, i) => {
      const managedKey = managedKeys.get(id);
      const owner = owners[i] ?? null;
      if ((inSource[i] === 1 && owner === id) || cleanHeld[i]) return;
      const key = keyed[i] ?? '';
      // Shown as the product lists it (`dup `, matched as `dup`), and said: a space does not show.
      const spaced = edgeSpacedListing(id, entry, key, matchBy);
      const line = { row: null, key: spaced ?? key, productId: id, status: 'ok', error: '' } as const;
      const notes = spaced === undefined ? [] : [spacedNote(matchBy, spaced)];
      // A key the source holds covers one product only, its row's: a second one listed under it is
      // said, never deactivated (the key is not gone from the source), whoever made it.
      if (inSource[i] === 1 && owner !== null) {
        const which = recorded.get(key)?.id === owner ? 'the one it recorded' : 'listed first';
        notes.unshift(
          `${SAME_KEY_NOTE} ${matchBy} ${key}: this tool writes product ${owner} (${which}), not this one`,
        );
        lines.push({ ...line, action: 'missing', note: notes.join('; ') });
      } else if (!deactivate || !managedKey) {
        lines.push(
          notes.length > 0
            ? { ...line, action: 'missing', note: notes.join('; ') }
            : { ...line, action: 'missing' },
        );
      } else if (alreadySo(decodeEntry(id, entry).values, deactivate)) {
        lines.push({ ...line, key: managedKey, action: 'deactivate', note: 'already so' });
      } else {
        due.push(id, managedKey);
      }
    });
    if (countOnly) {
      for (let i = 0; i < due.length; i += 2) counted.add(due[i] as string);
      continue;
    }
    if (due.length > 0) {
      await redis.hset(keys.deactivations(runId), ...due);
      figures.due += due.length / 2;
    }
    await deps.runs.addMissing(runId, lines);
  } while (cursor !== '0');
  // HSCAN may return an entry twice: the hash itself says how many are due.
  if (countOnly) figures.due = counted.size;
  else if (figures.due > 0) figures.due = await redis.hlen(keys.deactivations(runId));
  return figures;
}

/**
 * Of the products the id map holds (id → key), those this tool manages: an entry recorded by a list
 * read only (an `--incremental` full read records every listed product, hand-made ones too, so that
 * a later run does not create them again) is not. One read of the entries, only where any is held.
 */
async function managedOnly(idMap: IdMap, recordedKeys: Map<string, string>): Promise<Map<string, string>> {
  if (recordedKeys.size === 0) return recordedKeys;
  const entries = await idMap.getMany([...new Set(recordedKeys.values())]);
  const managed = new Map<string, string>();
  for (const [id, key] of recordedKeys) {
    const entry = entries.get(key);
    if (!(entry?.listed && entry.id === id)) managed.set(id, key);
  }
  return managed;
}

/**
 * Of `ids` (products a row touched), those this run created: its snapshot holds them beside the
 * listed ones (remote-index.ts), but the list read did not show them. A created product's key is in
 * createdKeys, and keyToId names it for that key. Costs nothing on a page with no such product.
 */
async function createdByRun(
  redis: Redis,
  keys: RedisKeys,
  runId: string,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const matchKeys = await redis.hmget(keys.idToKey(runId), ...ids);
  const placeholders = matchKeys.map((key) => key ?? '\u0000');
  const [isCreated, owners] = await Promise.all([
    redis.smismember(keys.createdKeys(runId), ...placeholders),
    redis.hmget(keys.keyToId(runId), ...placeholders),
  ]);
  return new Set(ids.filter((id, i) => isCreated[i] === 1 && owners[i] === id));
}

/**
 * The key as the product lists it where that is the run's key of it with white space at its edges
 * (`dup ` for `dup`: listed keys are read as cells are, sync/listed-keys.ts), else undefined. Most
 * entries hold the key as it is: told without parsing the entry.
 */
function edgeSpacedListing(id: string, entry: string, key: string, matchBy: string): string | undefined {
  if (key === '' || entry.includes(JSON.stringify(key))) return undefined;
  const listed = decodeEntry(id, entry).values[matchBy];
  return edgeSpacedKey(key, listed) ? listed : undefined;
}

/** `sku is "dup " on the marketplace (a space at its end)`. */
function spacedNote(matchBy: string, listed: string): string {
  const { shown, why } = listedKeyWords(listed);
  return `${matchBy} is ${shown} on the marketplace${why}`;
}
