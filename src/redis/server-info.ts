import type { Cluster, Redis } from 'ioredis';
import { displayRedisUrl } from './connect.js';
import { isCluster } from './connect-cluster.js';
import { infoRefused } from './info-access.js';

/** What catalog-sync needs to know of a Redis server before it writes to it. */
export interface RedisServerInfo {
  version: string;
  /** `master`, or `slave` for a replica. */
  role: string;
  /** The primary a replica follows, as `host:port`; null for a primary. */
  primary: string | null;
  usedMemory: number;
  /** 0: no limit. */
  maxmemory: number;
  policy: string;
}

/**
 * Reads INFO (server, memory, replication); null when the server does not let us (a managed Redis may
 * not). On a cluster, INFO of every master, summed up as the one that limits us (clusterInfo).
 */
export async function readServerInfo(redis: Redis): Promise<RedisServerInfo | null> {
  const client = redis as Redis | Cluster;
  // Refused at connect: asked again, its NOPERM would be taken for a permission the tool lacks (health.ts).
  if (infoRefused(client)) return null;
  try {
    if (isCluster(client)) {
      const masters = client.nodes('master');
      if (masters.length === 0) return null;
      return clusterInfo(
        await Promise.all(masters.map(async (master) => parseServerInfo(await master.info()))),
      );
    }
    return parseServerInfo(await client.info());
  } catch {
    return null;
  }
}

/**
 * A cluster's masters as one server: the oldest version, a policy that evicts if any master evicts,
 * and the memory of the master with the least room left. Seller keys spread over the masters by
 * slot, so a run may land on any of them: the fullest is the one a run must fit in (honest, if
 * pessimistic for a seller whose slot lives on an emptier master).
 */
export function clusterInfo(masters: readonly RedisServerInfo[]): RedisServerInfo {
  const [first, ...rest] = masters as [RedisServerInfo, ...RedisServerInfo[]];
  let tightest = first;
  let oldest = first.version;
  for (const master of rest) {
    if (roomLeft(master) < roomLeft(tightest)) tightest = master;
    if (versionBelow(master.version, versionParts(oldest))) oldest = master.version;
  }
  const evicting = masters.find((master) => master.policy !== 'noeviction');
  return {
    ...tightest,
    version: oldest,
    role: 'master',
    primary: null,
    policy: evicting?.policy ?? 'noeviction',
  };
}

export function parseServerInfo(text: string): RedisServerInfo {
  const fields = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  const host = fields.get('master_host');
  return {
    version: fields.get('redis_version') ?? fields.get('valkey_version') ?? '0.0.0',
    role: fields.get('role') ?? 'master',
    primary: host ? `${host}:${fields.get('master_port') ?? '6379'}` : null,
    usedMemory: Number(fields.get('used_memory') ?? 0),
    maxmemory: Number(fields.get('maxmemory') ?? 0),
    policy: fields.get('maxmemory_policy') ?? 'noeviction',
  };
}

/** Room left before Redis refuses writes; Infinity when it has no maxmemory. */
export function roomLeft(info: Pick<RedisServerInfo, 'usedMemory' | 'maxmemory'>): number {
  return info.maxmemory > 0 ? Math.max(0, info.maxmemory - info.usedMemory) : Number.POSITIVE_INFINITY;
}

/** `812 KiB`, `4.0 MiB`, `1.2 GiB`: sizes as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${Math.round(bytes)} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** `used 4.1 MiB of maxmemory 6.0 MiB`, or `used 4.1 MiB (no maxmemory)`. */
export function describeMemory(info: Pick<RedisServerInfo, 'usedMemory' | 'maxmemory'>): string {
  return info.maxmemory > 0
    ? `used ${formatBytes(info.usedMemory)} of maxmemory ${formatBytes(info.maxmemory)}`
    : `used ${formatBytes(info.usedMemory)} (no maxmemory)`;
}

const MINIMUM_VERSION = [5, 0, 0];

function versionParts(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

function versionBelow(version: string, minimum: number[]): boolean {
  const parts = versionParts(version);
  for (let i = 0; i < minimum.length; i++) {
    const have = parts[i] ?? 0;
    const need = minimum[i] ?? 0;
    if (have !== need) return have < need;
  }
  return false;
}

/**
 * What makes a Redis unfit for the commands that write (run, import, worker), as one line, or null:
 * a replica (every write would be refused), an eviction policy (an evicted key is a lost row or a
 * duplicate product) unless the user allows it, a version BullMQ cannot use.
 */
export function unfitForWrites(
  url: string,
  info: RedisServerInfo,
  options: { allowEviction: boolean },
): string | null {
  const at = displayRedisUrl(url);
  if (info.role === 'slave' || info.role === 'replica') {
    return `Redis at ${at} is a read-only replica${info.primary ? ` (of ${info.primary})` : ''}: point REDIS_URL at its primary`;
  }
  if (info.policy !== 'noeviction' && !options.allowEviction) {
    return (
      `Redis at ${at} evicts keys when it is full (maxmemory-policy ${info.policy}): an evicted key is a lost ` +
      'row or a duplicate product. Set maxmemory-policy noeviction, or pass --allow-eviction'
    );
  }
  if (versionBelow(info.version, MINIMUM_VERSION)) {
    return `Redis at ${at} is version ${info.version}: catalog-sync (BullMQ) needs 5.0 or newer`;
  }
  return null;
}
