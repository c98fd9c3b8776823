import type { ChainableCommander, Redis } from 'ioredis';
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

/**
 * HMGET of `fields` spread over buckets (`bucketKeyOf`): one HMGET per bucket, all in one pipeline.
 * The values come back in the order of `fields`.
 */
export async function readBuckets(
  redis: Redis,
  fields: readonly string[],
  bucketKeyOf: (field: string) => string,
): Promise<(string | null)[]> {
  const byBucket = new Map<string, number[]>();
  fields.forEach((field, i) => {
    const key = bucketKeyOf(field);
    const at = byBucket.get(key);
    if (at) at.push(i);
    else byBucket.set(key, [i]);
  });
  const pipeline: ChainableCommander = redis.pipeline();
  for (const [key, at] of byBucket) pipeline.hmget(key, ...at.map((i) => fields[i] as string));
  const answers = (await pipeline.exec()) ?? [];
  const values: (string | null)[] = fields.map(() => null);
  [...byBucket.values()].forEach((at, b) => {
    const [error, found] = answers[b] ?? [null, []];
    if (error) throw error;
    at.forEach((i, j) => {
      values[i] = (found as (string | null)[])[j] ?? null;
    });
  });
  return values;
}
