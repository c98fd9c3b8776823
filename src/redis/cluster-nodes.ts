import { UsageError } from '../usage-error.js';

/** REDIS_CLUSTER: `host:port` nodes, comma-separated; null when unset or empty. */
export function parseRedisCluster(value: string | undefined): string[] | null {
  if (!value?.trim()) return null;
  const nodes = value.split(',').map((node) => node.trim());
  for (const node of nodes) {
    const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(node);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      throw new UsageError(
        `REDIS_CLUSTER lists a cluster's nodes as host:port,host:port, and "${node}" is none`,
      );
    }
  }
  return nodes;
}

/** How a cluster is named in messages (REDIS_URL's place). */
export function clusterDisplay(nodes: readonly string[]): string {
  return `redis-cluster://${nodes.join(',')}`;
}
