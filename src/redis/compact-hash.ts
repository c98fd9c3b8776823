import type { Redis } from 'ioredis';
import { luaScript, runScript } from './scripts.js';

// A hash that held many fields and lost most of them keeps more than its fields (issue 31: Redis
// kept per product): Redis shrinks its table on HDEL, but moves the fields into the smaller one a
// step per later command on that hash, and a hash no one writes again keeps both tables. A run's
// outcomes, packed at its end (outcome-rows.ts), kept ~32 KB of table that way for 7 days. Written
// again, the hash is sized to its fields (a listpack, when they are few and short).
// KEYS[1] the hash; ARGV[1] the most fields it is written again with (the copy blocks Redis for it).
// Plain hash commands, not DUMP and RESTORE: an ACL user without @dangerous may run it. One HSET
// of every field, so that Redis grows the table in that one command (HSETs of a few fields each
// grew it by doubling, and left the last doubling half done). A hash whose fields pass the listpack's
// limits may still keep a doubling half done: at most 8 bytes a field, not the table of every row.
const REWRITE_SCRIPT = luaScript(
  'rewriteHash',
  1,
  `
local fields = redis.call('HLEN', KEYS[1])
if fields == 0 or fields > tonumber(ARGV[1]) then return 0 end
local ttl = redis.call('PTTL', KEYS[1])
local flat = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(flat))
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return 1
`,
);

/**
 * Past this many fields, the hash stays as it is: its table is then mostly its own fields', and one
 * HSET of them all would pass the arguments a Lua call takes (unpack: ~8,000).
 */
export const REWRITTEN_FIELDS_AT_MOST = 3000;

/**
 * Writes the hash `key` again, same fields and TTL, in one step, when it holds at most `atMost`
 * fields; true if it did.
 */
export async function rewriteHash(
  redis: Redis,
  key: string,
  atMost = REWRITTEN_FIELDS_AT_MOST,
): Promise<boolean> {
  return (await runScript(redis, REWRITE_SCRIPT, key, atMost)) === 1;
}
