import type { Redis } from 'ioredis';
import { LUA_SLICES } from './lua-slices.js';
import { luaScript, runScriptWithKeys, VARIABLE_KEYS } from './scripts.js';

/**
 * Writes of many fields, gathered to be done by one script call in one step (issue 31): the records
 * of a settle's rows go in the script that settles them (runs/run-scripts.ts), so they land with the
 * rows' outcomes or not at all, in a command per hash rather than one per row, with no MULTI.
 * Encoded as KEYS (each key once) and a section of ARGV: per write, its kind, its key's number, how
 * many values it has, then the values. `LUA_WRITES` defines `applyWrites`, which does them in order.
 */
export class WriteList {
  readonly keys: string[] = [];
  readonly args: string[] = [];
  private readonly keyNumbers = new Map<string, number>();

  /** HSET of field/value pairs. */
  hset(key: string, pairs: readonly string[]): void {
    this.add('hset', key, pairs);
  }

  /** SADD of members. */
  sadd(key: string, members: readonly string[]): void {
    this.add('sadd', key, members);
  }

  /** HSETNX of each field/value pair, in order: a field's first value wins. */
  setAbsent(key: string, pairs: readonly string[]): void {
    this.add('setAbsent', key, pairs);
  }

  /** HDEL of each field whose value still starts with the given prefix (field/prefix pairs). */
  deleteWherePrefixed(key: string, pairs: readonly string[]): void {
    this.add('deleteWherePrefixed', key, pairs);
  }

  /**
   * HDEL of each field whose value's first `|`-separated item is still the given one (field/item
   * pairs): an id-map entry while it still names the given product (id-map-entry.ts).
   */
  deleteWhereFirstItem(key: string, pairs: readonly string[]): void {
    this.add('deleteWhereFirstItem', key, pairs);
  }

  get empty(): boolean {
    return this.args.length === 0;
  }

  private add(kind: string, key: string, values: readonly string[]): void {
    if (values.length === 0) return;
    let number = this.keyNumbers.get(key);
    if (number === undefined) {
      this.keys.push(key);
      number = this.keys.length;
      this.keyNumbers.set(key, number);
    }
    this.args.push(kind, String(number), String(values.length), ...values);
  }
}

/**
 * `applyWrites(keyBase, first, last)`: the writes encoded in ARGV[first..last], their keys being
 * KEYS[keyBase + n]. Needs LUA_SLICES before it.
 */
export const LUA_WRITES = `
local function deleteWherePrefixed(key, pairs)
  local fields = {}
  for i = 1, #pairs, 2 do fields[#fields + 1] = pairs[i] end
  local held = sliced('HMGET', key, fields)
  local gone = {}
  for i = 1, #fields do
    local prefix = pairs[2 * i]
    if held[i] and string.sub(held[i], 1, #prefix) == prefix then gone[#gone + 1] = fields[i] end
  end
  if #gone > 0 then sliced('HDEL', key, gone) end
end

local function deleteWhereFirstItem(key, pairs)
  local fields = {}
  for i = 1, #pairs, 2 do fields[#fields + 1] = pairs[i] end
  local held = sliced('HMGET', key, fields)
  local gone = {}
  for i = 1, #fields do
    local item = pairs[2 * i]
    local value = held[i]
    if value and (value == item or string.sub(value, 1, #item + 1) == item .. '|') then gone[#gone + 1] = fields[i] end
  end
  if #gone > 0 then sliced('HDEL', key, gone) end
end

local function applyWrites(keyBase, first, last)
  local at = first
  while at <= last do
    local kind, key, count = ARGV[at], KEYS[keyBase + tonumber(ARGV[at + 1])], tonumber(ARGV[at + 2])
    local values = {}
    for j = at + 3, at + 2 + count do values[#values + 1] = ARGV[j] end
    if kind == 'hset' then sliced('HSET', key, values)
    elseif kind == 'sadd' then sliced('SADD', key, values)
    elseif kind == 'setAbsent' then setAbsent(key, values)
    elseif kind == 'deleteWherePrefixed' then deleteWherePrefixed(key, values)
    elseif kind == 'deleteWhereFirstItem' then deleteWhereFirstItem(key, values)
    else error('unknown write ' .. kind) end
    at = at + 3 + count
  end
end
`;

const APPLY_WRITES = luaScript(
  'applyWrites',
  VARIABLE_KEYS,
  `${LUA_SLICES}${LUA_WRITES}
applyWrites(0, 1, #ARGV)
return 1`,
);

/** Does the writes in one step (a record written at once, outside a settle). */
export async function runWrites(redis: Redis, writes: WriteList): Promise<void> {
  if (writes.empty) return;
  await runScriptWithKeys(redis, APPLY_WRITES, writes.keys, writes.args);
}
