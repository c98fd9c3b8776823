import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ID_MAP_MIGRATION_BATCH, ID_MAP_MIGRATION_LOCK_MS, ID_MAP_MIGRATION_WAIT_MS } from '../defaults.js';
import { oncePerClient } from '../redis/once-per-client.js';
import type { RedisKeys } from '../runs/keys.js';
import { idMapKeyOf, reverseKeyOf } from './id-map-buckets.js';
import { encodeKnown, type KnownProduct } from './id-map-entry.js';

/*
 * A seller's id map written before buckets (two hashes of JSON, keys.oldIdMap) is moved into the
 * buckets once, whole, the first time any process of the new form uses it: an entry moved only when
 * next written would leave the old hashes forever for products that never change, and every reader
 * (the claim's script among them) would have to read both forms. One process moves it under a lock;
 * the others wait until the old hashes are gone. Each batch writes its entries into the buckets and
 * deletes them from the old hash in one MULTI, so a process killed midway loses nothing and the next
 * one goes on; HSETNX leaves an entry already in the new form as it is.
 */

const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

// Per client and seller: a process checks once whether there is anything to move.
const once = oncePerClient();

/** Resolves once the seller's id map is in the bucketed form only. */
export function migrateOldIdMap(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<void> {
  return once(redis, keys.oldIdMap(sellerRef), () => migrate(redis, keys, sellerRef));
}

async function migrate(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<void> {
  const lock = keys.idMapMigration(sellerRef);
  const token = randomUUID();
  while ((await redis.exists(keys.oldIdMap(sellerRef), keys.oldIdMapReverse(sellerRef))) > 0) {
    if ((await redis.set(lock, token, 'PX', ID_MAP_MIGRATION_LOCK_MS, 'NX')) !== 'OK') {
      await new Promise((resolve) => setTimeout(resolve, ID_MAP_MIGRATION_WAIT_MS));
      continue;
    }
    try {
      await moveEntries(redis, keys.oldIdMap(sellerRef), lock, (key, json) => {
        const entry = parseOldEntry(json);
        return entry && [idMapKeyOf(keys, sellerRef, key), encodeKnown(key, entry)];
      });
      await moveEntries(redis, keys.oldIdMapReverse(sellerRef), lock, (id, key) => [
        reverseKeyOf(keys, sellerRef, id),
        key,
      ]);
    } finally {
      await redis.eval(RELEASE_SCRIPT, 1, lock, token);
    }
  }
}

/** Moves every field of `source` to the bucket `target` names (null: not an entry, dropped). */
async function moveEntries(
  redis: Redis,
  source: string,
  lock: string,
  target: (field: string, value: string) => [string, string] | null,
): Promise<void> {
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(source, cursor, 'COUNT', ID_MAP_MIGRATION_BATCH);
    cursor = next;
    if (flat.length === 0) continue;
    const multi = redis.multi();
    const fields: string[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const field = flat[i] as string;
      const moved = target(field, flat[i + 1] as string);
      if (moved) multi.hsetnx(moved[0], field, moved[1]);
      fields.push(field);
    }
    multi.hdel(source, ...fields);
    multi.pexpire(lock, ID_MAP_MIGRATION_LOCK_MS);
    await multi.exec();
  } while (cursor !== '0');
}

/** An old entry: JSON of an id and its memory; anything else (no reader could use it) is null. */
function parseOldEntry(json: string): KnownProduct | null {
  try {
    const parsed = JSON.parse(json) as KnownProduct;
    return typeof parsed.id === 'string' && typeof parsed.sent === 'object' && parsed.sent !== null
      ? parsed
      : null;
  } catch {
    return null;
  }
}
