import type { Redis } from 'ioredis';
import { oncePerClient } from '../redis/once-per-client.js';
import { luaScript, runScriptWithKeys, VARIABLE_KEYS } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';
import { spaceOfField } from '../sync/match-space.js';

/*
 * An earlier version kept `--missing`'s records by match key, per match field (keys.deactivated):
 * a product deactivated by a run matching by `sku` was not found when it came back in a feed matched
 * by `name`, and stayed off. They are kept by product id now (keys.deactivatedProducts). The records
 * of the earlier form are moved once, whole, by the first process that uses the seller: each of its
 * hashes in one script (atomic: a process killed half way left nothing half moved), read by no one
 * after, so no reader needs to know both forms.
 */

// KEYS[1]: the records by product id; KEYS[2..]: the earlier hashes by match key, one per field.
// A product recorded twice (deactivated under two fields) keeps the older record: the values before
// its first deactivation are the ones to give back. A record without `at` is from before it was kept,
// so older. What is not a record with an id is dropped, as a reader ignores it.
const MOVE = luaScript(
  'moveDeactivatedByKey',
  VARIABLE_KEYS,
  `
local moved = 0
local function dayOf(json)
  local ok, record = pcall(cjson.decode, json)
  if ok and type(record) == 'table' and type(record.at) == 'string' then return record.at end
  return ''
end
for i = 2, #KEYS do
  local flat = redis.call('HGETALL', KEYS[i])
  for j = 2, #flat, 2 do
    local ok, record = pcall(cjson.decode, flat[j])
    if ok and type(record) == 'table' and type(record.id) == 'string' then
      local kept = redis.call('HGET', KEYS[1], record.id)
      if not kept or dayOf(flat[j]) < dayOf(kept) then
        redis.call('HSET', KEYS[1], record.id, flat[j])
        moved = moved + 1
      end
    end
  end
  redis.call('DEL', KEYS[i])
end
return moved
`,
);

// Per client and seller: a process moves (or finds nothing to move) once.
const once = oncePerClient();

/** Resolves once the seller's `--missing` records are kept by product id only. */
export function moveDeactivatedByKey(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<void> {
  return once(redis, keys.deactivatedProducts(sellerRef), () => move(redis, keys, sellerRef));
}

async function move(redis: Redis, keys: RedisKeys, sellerRef: string): Promise<void> {
  // The home field's hash ('') and one per field with a space of its own (match-space.ts).
  const fields = await redis.smembers(keys.idMapFields(sellerRef));
  const earlier = ['', ...fields.map(spaceOfField)].map((space) => keys.deactivated(sellerRef, space));
  await runScriptWithKeys(redis, MOVE, [keys.deactivatedProducts(sellerRef), ...earlier], []);
}
