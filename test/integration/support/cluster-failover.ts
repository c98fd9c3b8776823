import type { Redis } from 'ioredis';
import type { TestCluster } from './redis-cluster.js';

/** The port of the master that serves `slot`, as the node `redis` sees it; null if none does. */
async function servingPort(redis: Redis, slot: number): Promise<number | null> {
  const ranges = await redis.cluster('SLOTS');
  const range = ranges.find(([first, last]) => first <= slot && slot <= last);
  return range?.[2] ? Number(range[2][1]) : null;
}

/** The port of the master that serves `slot`, as the first running node sees it; null if none does. */
export async function masterOfSlot(cluster: TestCluster, slot: number): Promise<number | null> {
  for (const port of cluster.alivePorts()) {
    const serving = await cluster.node(port, (redis) => servingPort(redis, slot));
    if (serving !== null) return serving;
  }
  return null;
}

/** The hash slot of `key` (CLUSTER KEYSLOT on a running node). */
export async function slotOf(cluster: TestCluster, key: string): Promise<number> {
  for (const port of cluster.alivePorts()) {
    const slot = await cluster.node(port, (redis) => redis.cluster('KEYSLOT', key));
    if (slot !== null) return Number(slot);
  }
  throw new Error('no node of the test cluster answers');
}

/** A master killed, and the slot it served. */
export interface KilledMaster {
  port: number;
  slot: number;
}

/** Kills the master serving `key`'s slot (SIGKILL, as a crash); `revive` its port after. */
export async function killMasterOf(cluster: TestCluster, key: string): Promise<KilledMaster> {
  const slot = await slotOf(cluster, key);
  const port = await masterOfSlot(cluster, slot);
  if (port === null) throw new Error(`no master serves slot ${slot}`);
  await cluster.kill(port);
  return { port, slot };
}

/**
 * Waits until a replica has taken over from the killed master: every running node says
 * `cluster_state:ok` and names another master for its slot. The wait is the cluster's own failover
 * (its `cluster-node-timeout`), not a guessed delay.
 */
export async function replicaTookOver(
  cluster: TestCluster,
  { port: killed, slot }: KilledMaster,
): Promise<void> {
  const takenOver = async () => {
    for (const port of cluster.alivePorts()) {
      const info = String(await cluster.node(port, (redis) => redis.cluster('INFO')));
      const serving = await cluster.node(port, (redis) => servingPort(redis, slot));
      if (!info.includes('cluster_state:ok') || serving === null || serving === killed) return false;
    }
    return true;
  };
  for (let i = 0; i < 600; i++) {
    if (await takenOver()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no replica took over slot ${slot} from the master on port ${killed}`);
}
