import type { Redis } from 'ioredis';
import { masterOfSlot, slotOf } from './cluster-failover.js';
import type { TestCluster } from './redis-cluster.js';

/** How a slot's move is paced: keys per MIGRATE, and what is waited for after each batch. */
export interface SlotMovePace {
  /** Keys moved by each `MIGRATE … KEYS`. */
  batch: number;
  /**
   * Awaited after each batch (its number from 0) while keys are left to move: the test's seam, so a
   * move spans what the test wants it to (a run's rows, a deadline) without guessed sleeps.
   */
  between: (batch: number) => Promise<void>;
}

/** A slot moved: from which master's port to which. */
export interface SlotMoved {
  slot: number;
  from: number;
  to: number;
  /** The keys moved, and in how many batches. */
  keys: number;
  batches: number;
}

async function nodeId(cluster: TestCluster, port: number): Promise<string> {
  const id = await cluster.node(port, (redis) => redis.cluster('MYID') as Promise<string>);
  if (!id) throw new Error(`node ${port} did not say its id`);
  return id;
}

/** Runs one command on a node; throws what the node answered (the rig's `node` swallows it). */
async function onNode<T>(cluster: TestCluster, port: number, body: (redis: Redis) => Promise<T>): Promise<T> {
  let failure: unknown = null;
  const answer = await cluster.node(port, (redis) =>
    body(redis).catch((error: unknown) => {
      failure = error;
      return null;
    }),
  );
  if (failure !== null || answer === null) throw failure ?? new Error(`node ${port} did not answer`);
  return answer;
}

/**
 * Moves `key`'s slot to another master as `redis-cli --cluster reshard` does: the target IMPORTING,
 * the source MIGRATING, its keys sent by `MIGRATE … KEYS` in batches (paced by `pace.between`), then
 * `SETSLOT … NODE` on the target, the source and every other master. Meanwhile the source answers a
 * command on a key it no longer has with ASK, and one on keys it has only some of with TRYAGAIN.
 */
export async function moveSlotOf(cluster: TestCluster, key: string, pace: SlotMovePace): Promise<SlotMoved> {
  const slot = await slotOf(cluster, key);
  const from = await masterOfSlot(cluster, slot);
  if (from === null) throw new Error(`no master serves slot ${slot}`);
  const masters: number[] = [];
  for (const port of cluster.alivePorts()) {
    const role = String(await cluster.node(port, (redis) => redis.info('replication')));
    if (role.includes('role:master')) masters.push(port);
  }
  const to = masters.find((port) => port !== from);
  if (to === undefined) throw new Error('no other master to move the slot to');
  const [fromId, toId] = [await nodeId(cluster, from), await nodeId(cluster, to)];
  const { password } = cluster.security;

  await onNode(cluster, to, (redis) => redis.cluster('SETSLOT', slot, 'IMPORTING', fromId));
  await onNode(cluster, from, (redis) => redis.cluster('SETSLOT', slot, 'MIGRATING', toId));
  let keys = 0;
  let batches = 0;
  for (;;) {
    const batch = await onNode(
      cluster,
      from,
      (redis) => redis.cluster('GETKEYSINSLOT', slot, pace.batch) as Promise<string[]>,
    );
    if (batch.length === 0) break;
    const auth = password ? ['AUTH', password] : [];
    await onNode(cluster, from, (redis) =>
      redis.call('MIGRATE', '127.0.0.1', String(to), '', '0', '10000', ...auth, 'KEYS', ...batch),
    );
    keys += batch.length;
    await pace.between(batches++);
  }
  for (const port of [to, from, ...masters.filter((p) => p !== to && p !== from)])
    await onNode(cluster, port, (redis) => redis.cluster('SETSLOT', slot, 'NODE', toId));
  return { slot, from, to, keys, batches };
}
