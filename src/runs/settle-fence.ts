/**
 * A chunk attempt's job lock (BullMQ's key, in the run's slot) and the tokens it holds it under: the
 * scripts that settle a chunk's writes (SETTLE, RESETTLE of an approval's rows, ADD_MISSING of its
 * deactivations) settle nothing for an attempt whose lock another attempt holds now (its worker was
 * cut off for a whole lock, and the chunk handed out again: queue/chunk-hold.ts), so that what the
 * chunk's holder finds is what it says.
 */
export interface SettleFence {
  lockKey: string;
  tokens: ReadonlySet<string>;
}

/**
 * The fence's key and ARGV value for a script: the lock and the attempt's tokens (comma-separated);
 * not fenced, `slotKey` (any key of the run's slot, for a cluster) and ''.
 */
export function fenceArgs(fence: SettleFence | undefined, slotKey: string): [key: string, tokens: string] {
  return fence ? [fence.lockKey, [...fence.tokens].join(',')] : [slotKey, ''];
}

// staleAttempt(lock, tokens): another attempt holds the chunk's lock. Not when unfenced (tokens ''), nor
// once the lock ran out and nobody took it: its rows settle, and the attempt that takes the chunk does
// not send them again. One GET, inside the script that settles (no round trip of its own).
export const LUA_FENCE = `
local function staleAttempt(lock, tokens)
  local holder = tokens ~= '' and redis.call('GET', lock)
  return holder and not string.find(',' .. tokens .. ',', ',' .. holder .. ',', 1, true)
end
`;
