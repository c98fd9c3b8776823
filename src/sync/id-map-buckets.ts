import type { Redis } from 'ioredis';
import { LUA_SLICES } from '../redis/lua-slices.js';
import { luaScript, runScriptWithKeys, VARIABLE_KEYS } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * How many hashes a seller's id map (and its reverse) is spread over. A small hash is kept by Redis
 * as a listpack (entries ≤ hash-max-listpack-entries, 128 in redis.conf, each value ≤ 64 bytes):
 * a typical entry then costs ~51 bytes instead of ~146 as one JSON hash (bench/id-map-scale.ts).
 * Fixed for every seller, so that any process computes a key's bucket without a look-up (a create's
 * claim passes it as a KEY of its script) and no process can hold an outdated count. 1,024 keeps the
 * buckets in listpacks up to ~100,000 products (~100 entries each) and costs ~4 bytes of per-key
 * overhead per product at 20,000; 4,096 would keep 1M-product maps in listpacks too, but cost ~32
 * bytes more per product at 20,000. Above ~100,000 products the buckets become hash tables, which
 * still keep the compact entries (~140 B/product at 1M against ~200), or stay listpacks where Redis
 * allows 1,024 entries (~77 B/product at 1M). Changing the count moves every key: a new form, moved
 * into like the old one (id-map-migration.ts).
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

/** The bucket of the id map that holds `matchKey`, in the match field's space (match-space.ts). */
export function idMapKeyOf(keys: RedisKeys, sellerRef: string, matchKey: string, space = ''): string {
  return keys.idMapBucket(sellerRef, bucketOf(matchKey), space);
}

/** The bucket of the reverse map that holds `id`, in the match field's space. */
export function reverseKeyOf(keys: RedisKeys, sellerRef: string, id: string, space = ''): string {
  return keys.idMapReverseBucket(sellerRef, bucketOf(id), space);
}

// KEYS: the bucket of each field; ARGV: the fields, in the same order. One command for a chunk's
// look-ups: a pipeline of an HMGET per bucket cost ~5 µs of client CPU per key, this ~1 µs. Inside,
// one HGET per bucket, or an HMGET where a bucket holds several of the fields (issue 31): 100 keys
// fall in ~95 of the 1,024 buckets, so a chunk costs ~0.95 commands per key, not 1.
const READ_SCRIPT = luaScript(
  'readIdMapBuckets',
  VARIABLE_KEYS,
  `${LUA_SLICES}
local inBucket, buckets = {}, {}
for i = 1, #KEYS do
  local places = inBucket[KEYS[i]]
  if not places then
    places = {}
    inBucket[KEYS[i]] = places
    buckets[#buckets + 1] = KEYS[i]
  end
  places[#places + 1] = i
end
local values = {}
for _, bucket in ipairs(buckets) do
  local places = inBucket[bucket]
  if #places == 1 then
    values[places[1]] = redis.call('HGET', bucket, ARGV[places[1]])
  else
    local fields = {}
    for j = 1, #places do fields[j] = ARGV[places[j]] end
    local got = sliced('HMGET', bucket, fields)
    for j = 1, #places do values[places[j]] = got[j] end
  end
end
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
