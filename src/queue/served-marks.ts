import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SERVED_RENEW_MS, SERVED_TTL_MS } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';
import type { RedisKeys } from '../runs/keys.js';

/**
 * Marks that some live process can serve a seller (it holds the seller's key): renewed every
 * SERVED_RENEW_MS, gone SERVED_TTL_MS after the last process that could serve the seller stopped,
 * or at once when the last one takes its own back as it ends (releaseServed). Each process is a
 * random token with its expiry (`3f9a…=1795824000000,…`), so that one ending leaves the others':
 * a `run` that exited 6 left its mark for 30 s, and `status` promised a probe no process would send.
 * The key lives as long as its latest holder, so whether it exists is the answer (isServed, and
 * `status`'s MGET); a plain time is an earlier version's mark, kept until it runs out. Which
 * process, or which key, is not stored.
 */
const MARK_SCRIPT = luaScript(
  'servedMark',
  1,
  `
local now = tonumber(ARGV[1])
local holder = ARGV[3]
local old = redis.call('GET', KEYS[1])
local holders = {}
if old then
  local listed = false
  for name, expiry in string.gmatch(old, '(%w+)=(%d+)') do
    listed = true
    if tonumber(expiry) > now and name ~= holder then holders[name] = tonumber(expiry) end
  end
  if not listed then
    local left = redis.call('PTTL', KEYS[1])
    if left > 0 then holders['earlier'] = now + left end
  end
end
if ARGV[4] == 'mark' then holders[holder] = now + tonumber(ARGV[2]) end
local parts = {}
local last = 0
for name, expiry in pairs(holders) do
  parts[#parts + 1] = name .. '=' .. string.format('%d', expiry)
  if expiry > last then last = expiry end
end
if #parts == 0 then
  redis.call('DEL', KEYS[1])
  return 0
end
table.sort(parts)
redis.call('SET', KEYS[1], table.concat(parts, ','), 'PX', string.format('%d', last - now))
return #parts
`,
);

/** A process's token in the served marks: random, it names nothing. */
export function servedHolder(): string {
  return randomBytes(6).toString('hex');
}

async function updateServed(
  redis: Redis,
  keys: RedisKeys,
  refs: readonly string[],
  now: number,
  holder: string,
  mode: 'mark' | 'release',
): Promise<void> {
  // One command per seller, sent together: each key lives in its seller's hash slot.
  await Promise.all(
    refs.map((ref) => runScript(redis, MARK_SCRIPT, keys.servedBy(ref), now, SERVED_TTL_MS, holder, mode)),
  );
}

/** Marks (renews) that the process `holder` serves the sellers `refs`. */
export async function markServed(
  redis: Redis,
  keys: RedisKeys,
  refs: readonly string[],
  now: number,
  holder: string,
): Promise<void> {
  await updateServed(redis, keys, refs, now, holder, 'mark');
}

/** The process `holder` serves the sellers no longer: its marks go, the other processes' stay. */
export async function releaseServed(
  redis: Redis,
  keys: RedisKeys,
  refs: readonly string[],
  now: number,
  holder: string,
): Promise<void> {
  await updateServed(redis, keys, refs, now, holder, 'release');
}

/** True when a process that can serve the seller renewed its mark lately. */
export async function isServed(redis: Redis, keys: RedisKeys, ref: string): Promise<boolean> {
  return (await redis.exists(keys.servedBy(ref))) === 1;
}

/**
 * Marks that a live worker served the seller until a key changed in its keys file, and holds the
 * new key, linked to no seller yet (keys.ts keyChangedUnlinked): renewed as the served marks are.
 */
export async function markKeyChanged(
  redis: Redis,
  keys: RedisKeys,
  refs: readonly string[],
  now: number,
): Promise<void> {
  await Promise.all(refs.map((ref) => redis.set(keys.keyChangedUnlinked(ref), now, 'PX', SERVED_TTL_MS)));
}

/** The worker serves the sellers again (`resume` linked the new key): their marks go at once. */
export async function clearKeyChanged(redis: Redis, keys: RedisKeys, refs: readonly string[]): Promise<void> {
  await Promise.all(refs.map((ref) => redis.del(keys.keyChangedUnlinked(ref))));
}

/** True when a live worker holds a changed key of the seller that no `resume` linked yet. */
export async function hasKeyChanged(redis: Redis, keys: RedisKeys, ref: string): Promise<boolean> {
  return (await redis.exists(keys.keyChangedUnlinked(ref))) === 1;
}

/**
 * Renews the marks of the sellers `refs()` names now and every SERVED_RENEW_MS until stopped; a
 * failed renewal is retried at the next one (the mark outlives two missed renewals). `keyChanged()`:
 * the sellers whose key-changed mark is renewed with them. The returned stop takes this process's
 * marks back (a Redis that does not answer: they run out as before), and never rejects.
 */
export function keepMarkedServed(
  redis: Redis,
  keys: RedisKeys,
  refs: () => readonly string[],
  now: () => number = Date.now,
  keyChanged: () => readonly string[] = () => [],
  holder: string = servedHolder(),
): () => Promise<void> {
  const marked = new Set<string>();
  const renew = () => {
    const serving = refs();
    for (const ref of serving) marked.add(ref);
    markServed(redis, keys, serving, now(), holder).catch(() => undefined);
    const changed = keyChanged();
    if (changed.length > 0) markKeyChanged(redis, keys, changed, now()).catch(() => undefined);
  };
  renew();
  const timer = setInterval(renew, SERVED_RENEW_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    const serving = new Set([...marked, ...refs()]);
    await releaseServed(redis, keys, [...serving], now(), holder).catch(() => undefined);
  };
}
