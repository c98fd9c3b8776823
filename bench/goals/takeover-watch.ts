import type { Redis } from 'ioredis';

/**
 * When the chunks a killed worker held were taken back (the worker-death bench goal and its test): the jobs active at the kill are watched every
 * few milliseconds, and a job BullMQ's stall check put back (its `stc` count went up) is noted with
 * the time it was first seen so. `stop()` resolves to those times, by job id.
 */
export async function watchTakeover(
  redis: Redis,
  bullPrefix: string,
  everyMs = 20,
): Promise<{ stop(): Promise<Map<string, number>> }> {
  const [activeKey] = await activeKeys(redis, bullPrefix);
  if (!activeKey) throw new Error(`no active job list under ${bullPrefix}:`);
  const queue = activeKey.slice(0, -':active'.length);
  const jobs = await redis.lrange(activeKey, 0, -1);
  const takenAt = new Map<string, number>();
  let running = true;
  const sample = async () => {
    const counts = await Promise.all(jobs.map((id) => redis.hget(`${queue}:${id}`, 'stc')));
    const now = Date.now();
    counts.forEach((count, i) => {
      const id = jobs[i] as string;
      if (Number(count ?? 0) > 0 && !takenAt.has(id)) takenAt.set(id, now);
    });
  };
  const loop = (async () => {
    while (running) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await sample();
      return takenAt;
    },
  };
}

async function activeKeys(redis: Redis, bullPrefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${bullPrefix}:*:active`, 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
  } while (cursor !== '0');
  return found;
}
