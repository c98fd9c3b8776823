import type { Redis } from 'ioredis';
import { luaScript, runScriptWithKeys, VARIABLE_KEYS } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * How many hashes a seller's id map (and its reverse) is spread over: a small hash is kept by Redis
 * as a listpack (entries ≤ hash-max-listpack-entries, 128 by default, each value ≤ 64 bytes), about a
 * third of the bytes of a hash table (issue 12). Fixed for every seller, so that any process computes
 * a key's bucket with no look-up (a create's claim passes it as a KEY of its script): 1,024 keeps
 * buckets in listpacks up to ~100,000 products (~100 entries each); a larger catalog's buckets become
 * hash tables, which still keep the compact entries (BENCHMARKS.md). Changing it moves every key:
 * that would be a new form with a migration of its own (id-map-migration.ts).
 */
export const ID_MAP_BUCKETS = 1024;

/** A stable hash of `text` (FNV-1a over its UTF-16 units, mixed by murmur3's finaliser) → its bucket. */
export function bucketOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % ID_MAP_BUCKETS;
}

/** The bucket of the id map that holds `matchKey`. */
export function idMapKeyOf(keys: RedisKeys, sellerRef: string, matchKey: string): string {
  return keys.idMapBucket(sellerRef, bucketOf(matchKey));
}

/** The bucket of the reverse map that holds `id`. */
export function reverseKeyOf(keys: RedisKeys, sellerRef: string, id: string): string {
  return keys.idMapReverseBucket(sellerRef, bucketOf(id));
}

// KEYS: the bucket of each field; ARGV: the fields, in the same order. One command for a chunk's
// look-ups: a pipeline of an HMGET per bucket cost ~5 µs of client CPU per key, this ~1 µs.
const READ_SCRIPT = luaScript(
  'readIdMapBuckets',
  VARIABLE_KEYS,
  `
local values = {}
for i = 1, #KEYS do values[i] = redis.call('HGET', KEYS[i], ARGV[i]) end
return values
`,
);

/** The value of each of `fields` in the bucket `bucketKeyOf` names (null where absent), in order. */
export async function readBuckets(
  redis: Redis,
  fields: readonly string[],
  bucketKeyOf: (field: string) => string,
): Promise<(string | null)[]> {
  if (fields.length === 0) return [];
  const buckets = fields.map(bucketKeyOf);
  const values = (await runScriptWithKeys(redis, READ_SCRIPT, buckets, fields)) as (string | false | null)[];
  return fields.map((_, i) => values[i] || null);
}
