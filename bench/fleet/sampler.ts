import { processMemory } from '../big-import/processes.js';
import { type FleetRedis, othersConnected } from './world.js';

/** What a worker held while watched: connections to the bench Redis, and its memory. */
export interface Watch {
  /** Most connections seen (CLIENT LIST less the bench's own). */
  connectionsMax: number;
  /** Connections at the last sample. */
  connectionsLast: number;
  /** VmHWM: the worker's peak RSS, in bytes. */
  peakRss: number;
  /** VmRSS at the last sample, in bytes. */
  lastRss: number;
  samples: number;
}

/** Samples a worker's connections and memory every `everyMs` while `until` resolves false. */
export async function watchWorker(
  redis: FleetRedis,
  pid: number,
  until: () => Promise<boolean>,
  everyMs = 250,
): Promise<Watch> {
  const watch: Watch = { connectionsMax: 0, connectionsLast: 0, peakRss: 0, lastRss: 0, samples: 0 };
  for (;;) {
    const [connections, memory] = await Promise.all([othersConnected(redis), processMemory(pid)]);
    if (!memory) throw new Error('the worker exited while watched');
    watch.connectionsMax = Math.max(watch.connectionsMax, connections);
    watch.connectionsLast = connections;
    watch.peakRss = Math.max(watch.peakRss, memory.hwm);
    watch.lastRss = memory.rss;
    watch.samples++;
    if (await until()) return watch;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** How many of the runs are done (one pipelined HGET each). */
export async function runsDone(redis: FleetRedis, runKeys: readonly string[]): Promise<number> {
  const pipeline = redis.own.pipeline();
  for (const key of runKeys) pipeline.hget(key, 'state');
  const states = (await pipeline.exec()) ?? [];
  return states.filter(([, state]) => state === 'done').length;
}
