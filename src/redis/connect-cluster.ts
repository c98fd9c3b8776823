import type { Cluster, Redis, RedisOptions } from 'ioredis';
import { REDIS_CONNECT_TIMEOUT_MS } from '../defaults.js';
import { ClusterNodeError } from './cluster-node-check.js';
import { clusterDisplay, type RedisClusterTarget } from './cluster-nodes.js';
import { connectRedis, RedisUnavailableError } from './connect.js';
import { applyInfoAccess, infoAccessOf, noteInfoRefused } from './info-access.js';
import { WatchedCluster } from './watched-cluster.js';

/**
 * REDIS_CLUSTER: every connection of the process is an ioredis Cluster (BullMQ takes one as its
 * `connection`). The rest of the tool types its clients as `Redis`: a Cluster answers the same
 * commands (each sent to the master of its key's slot), and the few places where the two differ
 * (INFO of every master, the client's options) ask `isCluster`.
 */
export function isCluster(redis: Redis | Cluster): redis is Cluster {
  return (redis as { isCluster?: boolean }).isCluster === true;
}

/** The client's own options (BullMQ reads `skipVersionCheck` there): a Cluster keeps them in redisOptions. */
export function nodeOptions(redis: Redis): Record<string, unknown> {
  const cluster = redis as unknown as Redis | Cluster;
  if (isCluster(cluster)) {
    cluster.options.redisOptions ??= {};
    return cluster.options.redisOptions as Record<string, unknown>;
  }
  return cluster.options as unknown as Record<string, unknown>;
}

/**
 * How every node is spoken to, the ones REDIS_CLUSTER names and the ones the cluster names (and
 * every duplicate BullMQ makes): REDIS_CLUSTER's password and TLS (Node's trusted CAs, plus
 * NODE_EXTRA_CA_CERTS, as for REDIS_URL).
 */
function nodeOptionsOf(
  target: RedisClusterTarget,
  options: { connectTimeoutMs?: number; connectionName?: string },
): RedisOptions {
  return {
    maxRetriesPerRequest: null,
    connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
    connectionName: options.connectionName ?? 'catalog-sync',
    // Its INFO may be refused: turned on once INFO is known to be granted (info-access.ts).
    enableReadyCheck: false,
    ...(target.username === undefined ? {} : { username: target.username }),
    ...(target.password === undefined ? {} : { password: target.password }),
    ...(target.tls ? { tls: {} } : {}),
  };
}

/**
 * Why the first node refuses us, when it is Redis itself or its TLS that does (a password wanted or
 * rejected, a certificate not trusted, a reset): a Cluster reports each of them only as "Connection
 * is closed.", so one plain connection to the node (connectRedis, with REDIS_CLUSTER's scheme and
 * credentials) asks. Null when the node answers a PING.
 */
async function firstNodeRefusal(
  target: RedisClusterTarget,
  options: { connectTimeoutMs?: number },
): Promise<unknown> {
  const [first] = target.nodes;
  if (first === undefined) return null;
  const user = target.username ? encodeURIComponent(target.username) : '';
  const credentials = target.password === undefined ? '' : `${user}:${encodeURIComponent(target.password)}@`;
  const url = `${target.tls ? 'rediss' : 'redis'}://${credentials}${first}`;
  try {
    const probe = await connectRedis(url, { ...options, connectionName: 'catalog-sync-probe' });
    probe.disconnect();
    return null;
  } catch (error) {
    if (!(error instanceof RedisUnavailableError)) return error;
    // A node of the cluster is one, as it should be: it answered.
    return error.cause instanceof ClusterNodeError ? null : error.cause;
  }
}

/**
 * ioredis resolves the nodes it is given to addresses before connecting, and TLS then checks the
 * certificate against the address: a certificate for host names (a managed cluster's,
 * `*.cache.amazonaws.com`) would never match. Kept as named, the name is resolved as the socket
 * connects and checked against the certificate (ioredis documents this for TLS clusters). The nodes
 * the cluster names (CLUSTER SLOTS) are connected to as it names them.
 */
function keepHostName(hostname: string, callback: (error: null, address: string) => void): void {
  callback(null, hostname);
}

function nodeOf(hostPort: string): { host: string; port: number } {
  const colon = hostPort.lastIndexOf(':');
  return { host: hostPort.slice(0, colon).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(colon + 1)) };
}

/**
 * Connects to the cluster and proves it: the slots are read from the nodes given, then every master
 * answers a PING (a master out of reach would fail the commands of its slots one by one, mid-run).
 * Fails with one line (RedisUnavailableError) as connectRedis does. Returned typed as `Redis`
 * (see isCluster).
 */
export async function connectCluster(
  target: RedisClusterTarget,
  options: { connectTimeoutMs?: number; connectionName?: string; rideOutMs?: number } = {},
): Promise<Redis> {
  const display = clusterDisplay(target);
  const cluster = new WatchedCluster(target.nodes.map(nodeOf), {
    lazyConnect: true,
    ...(target.tls ? { dnsLookup: keepHostName } : {}),
    // No retries while proving the connection: a cluster out of reach is said at once.
    clusterRetryStrategy: () => null,
    slotsRefreshTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
    redisOptions: nodeOptionsOf(target, options),
  });
  let cause: unknown = null;
  const remember = (error: unknown) => {
    cause ??= (error as { lastNodeError?: unknown }).lastNodeError ?? error;
  };
  // A node's own error (ECONNREFUSED) says more than the cluster's "Connection is closed.".
  cluster.on('node error', remember);
  cluster.on('error', remember);
  cluster.on('error', () => {});
  try {
    await cluster.connect();
    const masters = cluster.nodes('master');
    if (masters.length === 0) throw new Error('no master answered');
    // Every master once loaded; INFO refused on any: taken as refused on all (one user, one ACL a node).
    const accesses = await Promise.all(masters.map((master) => infoAccessOf(master)));
    const access = accesses.includes('refused') ? 'refused' : 'granted';
    for (const node of [cluster.options.redisOptions ?? {}, ...cluster.nodes().map((n) => n.options)])
      applyInfoAccess(node, access);
    if (access === 'refused') noteInfoRefused(cluster);
    await Promise.all(
      masters.map((master) =>
        master.ping().catch((error: unknown) => {
          throw new Error(`master ${master.options.host}:${master.options.port}: ${String(error)}`);
        }),
      ),
    );
  } catch (error) {
    cluster.disconnect();
    throw new RedisUnavailableError(display, (await firstNodeRefusal(target, options)) ?? cause ?? error);
  } finally {
    cluster.off('error', remember);
    cluster.off('node error', remember);
  }
  // Once connected, a lost node is reconnected (a failover, a restart), as connectRedis does, and
  // a command waits out a failover.
  cluster.options.clusterRetryStrategy = (attempt: number) => Math.min(attempt * 250, 2000);
  cluster.rideOutMs = options.rideOutMs ?? 0;
  return cluster as unknown as Redis;
}
