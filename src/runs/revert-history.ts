import type { Redis } from 'ioredis';
import { REVERTS_KEPT } from '../defaults.js';
import { luaScript, runScript } from '../redis/scripts.js';

// Each `revert` of a run that went to its end, kept in the run's hash: `status` and the dashboard list
// them in order. A revert is one field `revert:<n>` (n counts the run's reverts from 1, field
// `reverts`); only the last REVERTS_KEPT stay, so a run reverted night after night keeps a short hash.
// A record written before this history holds its one revert as `revertedAt` and `revertCounts`.

/** One revert: when it ended, and what it did by outcome (revert-run.ts revertCounts). */
export interface RevertEntry {
  at: number;
  counts: Record<string, number>;
}

const RECORD_REVERT = luaScript(
  'recordRevert',
  1,
  `local n = redis.call('HINCRBY', KEYS[1], 'reverts', 1)
   redis.call('HSET', KEYS[1], 'revert:' .. n, ARGV[1])
   local kept = tonumber(ARGV[2])
   if n > kept then redis.call('HDEL', KEYS[1], 'revert:' .. (n - kept)) end
   return n`,
);

/** Adds a revert to the run's history (one step: numbered, stored, the oldest beyond the kept dropped). */
export async function recordRevert(
  redis: Redis,
  runKey: string,
  at: number,
  counts: Record<string, number>,
): Promise<void> {
  await runScript(redis, RECORD_REVERT, runKey, JSON.stringify({ at, counts }), REVERTS_KEPT);
}

/**
 * The reverts a run's hash lists, oldest first, and how many earlier ones are no longer kept. What
 * Redis holds is not trusted: an entry that does not read as a revert is left out.
 */
export function revertsOf(hash: Record<string, string>): { reverts: RevertEntry[]; dropped: number } {
  const reverts: RevertEntry[] = [];
  if (hash.revertedAt) {
    const at = Number(hash.revertedAt);
    if (Number.isFinite(at)) reverts.push({ at, counts: countsOf(hash.revertCounts) });
  }
  const numbered: Array<[number, RevertEntry]> = [];
  for (const field of Object.keys(hash)) {
    const match = /^revert:(\d+)$/.exec(field);
    const entry = match ? entryOf(hash[field] as string) : null;
    if (match && entry) numbered.push([Number(match[1]), entry]);
  }
  numbered.sort(([a], [b]) => a - b);
  for (const [, entry] of numbered) reverts.push(entry);
  const total = Number(hash.reverts ?? 0);
  const dropped = Number.isInteger(total) ? Math.max(0, total - numbered.length) : 0;
  return { reverts, dropped };
}

function entryOf(json: string): RevertEntry | null {
  try {
    const parsed = JSON.parse(json) as { at?: unknown; counts?: unknown };
    if (typeof parsed.at !== 'number' || !Number.isFinite(parsed.at)) return null;
    return { at: parsed.at, counts: countsOf(parsed.counts) };
  } catch {
    return null;
  }
}

/** Counts by name; what is not a count is dropped, and a broken record shows none rather than failing. */
function countsOf(value: unknown): Record<string, number> {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return {};
    }
  }
  const counts: Record<string, number> = {};
  if (parsed === null || typeof parsed !== 'object') return counts;
  const record = parsed as Record<string, unknown>;
  for (const name of Object.keys(record).sort()) {
    const count = record[name];
    if (typeof count === 'number' && Number.isFinite(count)) counts[name] = count;
  }
  return counts;
}
