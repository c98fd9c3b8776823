import type { Redis } from 'ioredis';

/**
 * REDIS_URL (or --redis-url) names one node of a Redis Cluster: a single-server client would send
 * every command there, and every key whose slot another master holds would be answered MOVED, every
 * multi-key command CROSSSLOT (issue: a stack trace mid-run, `status` saying "no run yet"). Told
 * at connect instead, before anything is read or written.
 */
export class ClusterNodeError extends Error {
  override name = 'ClusterNodeError';
  constructor(
    /** CLUSTER INFO's `cluster_state:…` line, for the message. */
    readonly state: string,
  ) {
    super(`a node of a Redis Cluster (${state})`);
  }
}

/**
 * The node's `cluster_state:…` when it runs in cluster mode, else null. CLUSTER INFO is in no
 * dangerous ACL category (INFO is: a managed service's user may lack it), and a server without
 * cluster support refuses it ("cluster support disabled"); a user refused CLUSTER could not use
 * the cluster through REDIS_CLUSTER either, so a refusal reads as "not a cluster" too.
 */
export async function clusterStateOf(redis: Redis): Promise<string | null> {
  let info: string;
  try {
    info = String(await redis.cluster('INFO'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/cluster support disabled|^NOPERM\b|unknown (sub)?command/i.test(reason)) return null;
    throw error;
  }
  return /^cluster_state:\S*/m.exec(info)?.[0] ?? 'cluster_state:unknown';
}

/**
 * What REDIS_CLUSTER would be for the cluster of the node `url` names: its scheme when TLS, its
 * credentials as placeholders (the password never shown), the node, and `,…` for the others.
 */
export function clusterValueFor(url: string): string {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'rediss:';
  const credentials = parsed.password
    ? `${parsed.username ? 'USER' : ''}:PASSWORD@`
    : parsed.username
      ? 'USER:PASSWORD@'
      : '';
  const scheme = tls || credentials ? `${tls ? 'rediss' : 'redis'}://` : '';
  return `${scheme}${credentials}${parsed.host},…`;
}

/** The line: which option named a cluster node, and where the cluster's nodes go instead. */
export function clusterNodeLine(
  variable: 'REDIS_URL' | '--redis-url',
  at: string,
  url: string,
  state: string,
): string {
  // --redis-url goes before REDIS_CLUSTER (flags override variables): it must go for REDIS_CLUSTER to count.
  const andThen = variable === '--redis-url' ? ', and no --redis-url' : '';
  return (
    `${variable} names Redis at ${at}, a node of a Redis Cluster (${state}): a cluster's keys live on ` +
    `all its masters; name its nodes in REDIS_CLUSTER instead (REDIS_CLUSTER=${clusterValueFor(url)})${andThen}`
  );
}
