import type { Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * Run record field: the run's list read found products without a SKU that the tool has no record
 * of (RunRecord.lookalikeGuarded). A row whose key the preset derived (no SKU in the file) is
 * matched to its product through the ids this tool records alone: with that record lost (a flushed
 * Redis, an empty replica, another CATALOG_SYNC_PREFIX), the product made for it is one of these,
 * and the row's create would make it a second time (guards/lookalike-creates.ts).
 */
export const LOOKALIKE_GUARDED = 'lookalikeGuarded';

/** How many names one HSET of the list read's names carries. */
const NAMES_PER_HSET = 500;

/**
 * A product's name as the check compares it (unrecordedNames), in the form that survives what
 * marketplaces do to names: they store their own copy (runs of spaces made one, trimmed), so the
 * product made for `Clay  Mug   Blue` is listed as `Clay Mug Blue`. Compatibility Unicode form
 * (`é` as one character or as `e` and an accent, a full-width `Ｍ`, a no-break space), every run of
 * whitespace one space, trimmed, any case. The check only holds a run for the user's say, so a
 * slightly wider match is the safe side. Null for no name.
 */
export function nameKey(name: unknown): string | null {
  if (typeof name !== 'string') return null;
  const comparable = name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
  return comparable === '' ? null : comparable;
}

/**
 * After the run's own list read (not an approval's), matching by `sku`: keeps the names of the
 * listed products no key could be found for (no SKU, and an id the id map does not know), each to
 * the first such product listed under it, and marks the run (LOOKALIKE_GUARDED) so that it plans
 * first. Nothing is written for a seller that lists none: a first migration into an empty
 * marketplace and a re-run whose record is whole cost no command here.
 */
export async function keepUnrecordedNames(
  redis: Redis,
  keys: RedisKeys,
  run: { id: string; matchBy: string },
  unkeyed: readonly { id: string; name?: unknown }[],
): Promise<void> {
  if (run.matchBy !== 'sku') return;
  const byName = new Map<string, string>();
  for (const product of unkeyed) {
    const name = nameKey(product.name);
    if (name !== null && !byName.has(name)) byName.set(name, product.id);
  }
  if (byName.size === 0) return;
  const key = keys.unrecordedNames(run.id);
  const pairs = [...byName].flat();
  const multi = redis.multi();
  for (let at = 0; at < pairs.length; at += 2 * NAMES_PER_HSET)
    multi.hset(key, ...pairs.slice(at, at + 2 * NAMES_PER_HSET));
  multi.expire(key, RUN_TTL_SECONDS);
  multi.hset(keys.run(run.id), LOOKALIKE_GUARDED, 1);
  await multi.exec();
}
