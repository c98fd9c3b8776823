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

/** How many ids one SADD or SREM of the seller's approved look-alikes carries. */
export const IDS_PER_COMMAND = 1000;

/**
 * After the run's own list read (not an approval's), matching by `sku`: keeps the names of the
 * listed products no key could be found for (no SKU, and an id the id map does not know), each with
 * the ids of every such product listed under it, and marks the run (LOOKALIKE_GUARDED) so that it
 * plans first. Products the seller approved past (keys.approvedLookalikes) are left out: a run
 * whose every such product was approved is not marked, and costs its chunks nothing. Nothing is
 * read or written for a seller that lists none: a first migration into an empty marketplace and a
 * re-run whose record is whole cost no command here; one that lists some, one read (and the
 * approved ids no longer listed so dropped with the names' write, but by a dry run).
 */
export async function keepUnrecordedNames(
  redis: Redis,
  keys: RedisKeys,
  run: { id: string; matchBy: string; sellerRef: string; dryRun?: boolean },
  unkeyed: readonly { id: string; name?: unknown }[],
): Promise<void> {
  if (run.matchBy !== 'sku') return;
  const named = unkeyed.flatMap((product) => {
    const name = nameKey(product.name);
    return name === null ? [] : [{ id: product.id, name }];
  });
  if (named.length === 0) return;
  const approvedKey = keys.approvedLookalikes(run.sellerRef);
  const approved = new Set(await redis.smembers(approvedKey));
  const byName = new Map<string, string[]>();
  for (const { id, name } of named) {
    if (approved.has(id)) continue;
    const ids = byName.get(name);
    if (ids) ids.push(id);
    else byName.set(name, [id]);
  }
  // Approved products no longer listed without a SKU unknown to the tool (given one, recorded,
  // deleted) are forgotten: the set stays as small as what it stands for. A dry run writes none of it.
  const listed = new Set(unkeyed.map((product) => product.id));
  const gone = run.dryRun ? [] : [...approved].filter((id) => !listed.has(id));
  if (byName.size === 0 && gone.length === 0) return;
  const multi = redis.multi();
  for (let at = 0; at < gone.length; at += IDS_PER_COMMAND)
    multi.srem(approvedKey, ...gone.slice(at, at + IDS_PER_COMMAND));
  if (byName.size > 0) {
    const key = keys.unrecordedNames(run.id);
    const pairs = [...byName].flatMap(([name, ids]) => [name, ids.join(',')]);
    for (let at = 0; at < pairs.length; at += 2 * NAMES_PER_HSET)
      multi.hset(key, ...pairs.slice(at, at + 2 * NAMES_PER_HSET));
    multi.expire(key, RUN_TTL_SECONDS);
    multi.hset(keys.run(run.id), LOOKALIKE_GUARDED, 1);
  }
  await multi.exec();
}
