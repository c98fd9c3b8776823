import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import { queueSetAbsent, SLICE_SCRIPTS } from '../redis/lua-slices.js';
import { defineScripts } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RemoteProduct } from '../seller-api/index.js';
import type { IndexedProduct } from './diff.js';
import { type FormerPairs, noteFormerForm, queueFormerPairs } from './former-key-forms.js';
import type { IdMap } from './id-map.js';
import { encodeEntry } from './index-entry.js';
import { listedValue, queueListedKeys } from './listed-keys.js';

/** What a page of the list read is written with (remote-index.ts, `load`). */
export interface PageTarget {
  redis: Redis;
  keys: RedisKeys;
  runId: string;
  matchBy: string;
  idMap: IdMap;
  /** A listed product as the run's index keeps it. */
  indexed: (product: RemoteProduct) => IndexedProduct;
  /** The run's own read matched by another field than sku: the values kept besides (listed-keys.ts). */
  listedKeyFields?: readonly string[];
}

/**
 * One page in one round trip, in a handful of commands: an HSET of many pairs per hash. Keyless
 * products (neither the API nor the id map tells their key) are added to `unkeyed`. `recordListed`:
 * also add every keyed product to the seller's id map (an `--incremental` full read).
 */
export async function writePage(
  target: PageTarget,
  page: RemoteProduct[],
  recordListed: boolean,
  unkeyed: Array<IndexedProduct & { name?: string }>,
): Promise<void> {
  if (page.length === 0) return;
  const { redis, keys, runId, matchBy, idMap } = target;
  const keysOfHidden = await idMap.keysOfIds(
    page.filter((product) => matchKeyOf(product, matchBy) === null).map((product) => product.id),
  );
  defineScripts(redis, ...SLICE_SCRIPTS);
  const multi = redis.multi();
  const entries: string[] = [];
  const keyOfId: string[] = [];
  const idOfKey: string[] = [];
  // Keys an earlier version wrote another way (former-key-forms.ts): none on nearly every page.
  const formerPairs: FormerPairs = new Map();
  for (const product of page) {
    const indexed = target.indexed(product);
    entries.push(product.id, encodeEntry(indexed));
    const key = matchKeyOf(product, matchBy) ?? keysOfHidden.get(product.id) ?? null;
    if (key === null) {
      // Its name as listed, whatever the index keeps of it: a derived key's create is checked
      // against it (unrecorded-names.ts).
      const name = product.fields.name;
      unkeyed.push(typeof name === 'string' ? { ...indexed, name } : indexed);
      continue;
    }
    idOfKey.push(key, product.id);
    keyOfId.push(product.id, key);
    noteFormerForm(formerPairs, key);
    if (recordListed) idMap.addListed(multi, key, product.id);
  }
  multi.hset(keys.products(runId), ...entries);
  if (target.listedKeyFields?.length) queueListedKeys(multi, keys, runId, page, target.listedKeyFields);
  if (keyOfId.length > 0) multi.hset(keys.idToKey(runId), ...keyOfId);
  queueFormerPairs(multi, keys, runId, formerPairs);
  // The run's lifetime from the first page on, not only once the list is read: a read killed
  // midway (SIGTERM, a crash, a list past a cap) leaves nothing in Redis for ever.
  for (const key of listKeys(keys, runId)) multi.expire(key, RUN_TTL_SECONDS);
  // Last, so that its answer is the last: how many keys it set, fewer when one was listed already.
  if (idOfKey.length > 0) queueSetAbsent(multi, keys.keyToId(runId), idOfKey);
  const answers = (await multi.exec()) ?? [];
  const set = idOfKey.length > 0 ? Number(answers[answers.length - 1]?.[1] ?? 0) : 0;
  if (set < idOfKey.length / 2) await preferRecorded(target, idOfKey);
}

/**
 * Two products listed under one key (one made by hand beside the tool's own, or given the key by
 * hand): the one the id map records is the key's, not the first listed. The other is never
 * written for the key's row, and never deactivated while the source holds the key (missing-scan.ts).
 * Costs commands only on a page that lists a key twice (its own or an earlier page's).
 */
async function preferRecorded(target: PageTarget, idOfKey: readonly string[]): Promise<void> {
  const { redis, keys, runId, idMap } = target;
  const pageKeys = idOfKey.filter((_, i) => i % 2 === 0);
  const held = await redis.hmget(keys.keyToId(runId), ...pageKeys);
  // The keys whose product this page lists is not the one the index holds: listed twice.
  const twice = new Map<string, Set<string>>();
  pageKeys.forEach((key, i) => {
    const id = idOfKey[2 * i + 1] as string;
    if (held[i] === id) return;
    const ids = twice.get(key) ?? new Set<string>();
    twice.set(key, ids.add(id));
  });
  if (twice.size === 0) return;
  const recorded = await idMap.getMany([...twice.keys()]);
  const preferred = [...twice].flatMap(([key, ids]) => {
    const id = recorded.get(key)?.id;
    return id !== undefined && ids.has(id) ? [key, id] : [];
  });
  if (preferred.length > 0) await redis.hset(keys.keyToId(runId), ...preferred);
}

/** The keys a list read writes. */
export function listKeys(keys: RedisKeys, runId: string): string[] {
  return [keys.products(runId), keys.keyToId(runId), keys.idToKey(runId)];
}

function matchKeyOf(product: RemoteProduct, matchBy: string): string | null {
  return listedValue(product.fields[matchBy]);
}
