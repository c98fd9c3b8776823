import type { Redis } from 'ioredis';

/** Ids read at a time, newest first, while the newest with a record is looked for. */
const PAGE = 20;

/**
 * The newest id of a runs index (a sorted set by creation time) whose run Redis still holds, and
 * its score; null when none has. An id may outlive its record: one expired within its last day, or
 * one an import that stepped aside left listed before 0.x took it back (stepped-aside.ts). Taking
 * the first id alone, `status --seller` said the seller had no run while `--list` showed three.
 */
export async function newestWithRecord(
  redis: Redis,
  index: string,
  holds: (id: string) => Promise<boolean>,
): Promise<{ id: string; at: number } | null> {
  for (let start = 0; ; start += PAGE) {
    const scored = await redis.zrevrange(index, start, start + PAGE - 1, 'WITHSCORES');
    for (let i = 0; i + 1 < scored.length; i += 2) {
      const id = scored[i] as string;
      if (await holds(id)) return { id, at: Number(scored[i + 1]) };
    }
    if (scored.length < PAGE * 2) return null;
  }
}
