import { UsageError } from '../usage-error.js';

/** REDIS_CLUSTER read: the nodes to start from, and how every node is spoken to. */
export interface RedisClusterTarget {
  /** `host:port`, as given. */
  nodes: string[];
  /** `rediss://`: every node (and the cluster bus, the server's business) speaks TLS. */
  tls: boolean;
  /** An ACL user; with a password only. */
  username?: string;
  password?: string;
}

const NODE = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/;

/**
 * REDIS_CLUSTER: `host:port` nodes, comma-separated, optionally after the scheme and credentials
 * of REDIS_URL, which apply to every node: `rediss://USER:PASSWORD@h1:7000,h2:7000` (the password
 * URL-encoded, as in REDIS_URL). Null when unset or empty. Errors never quote the password.
 */
export function parseRedisCluster(value: string | undefined): RedisClusterTarget | null {
  if (!value?.trim()) return null;
  const scheme = /^([A-Za-z][\w+.-]*):\/\//.exec(value.trim());
  if (scheme && !/^rediss?$/i.test(scheme[1] ?? '')) {
    throw new UsageError(
      `REDIS_CLUSTER starts with redis:// or rediss:// when it gives a password or TLS, not ${scheme[1]}://`,
    );
  }
  const rest = scheme ? value.trim().slice(scheme[0].length) : value;
  // The nodes hold no @: the last one ends the credentials, whatever the password holds.
  const at = rest.lastIndexOf('@');
  const credentials =
    at >= 0 ? readCredentials(rest.slice(0, at), scheme?.[1]?.toLowerCase() ?? 'redis') : {};
  const nodes = rest
    .slice(at + 1)
    .split(',')
    .map((node) => withoutDatabase(node.trim()));
  for (const node of nodes) {
    const match = NODE.exec(node);
    const port = match ? Number(match[2]) : 0;
    if (!match || port < 1 || port > 65535) {
      throw new UsageError(
        `REDIS_CLUSTER lists a cluster's nodes as host:port,host:port, and "${node}" is none`,
      );
    }
  }
  return { nodes, tls: scheme?.[1]?.toLowerCase() === 'rediss', ...credentials };
}

/**
 * A node without a database index: a Redis Cluster has only database 0, so a node (REDIS_URL's
 * form, `h:7000/3`) naming another is refused rather than its data written to database 0.
 */
function withoutDatabase(node: string): string {
  const named = /^(.*)\/(\d+)$/.exec(node);
  if (!named) return node;
  if (Number(named[2]) !== 0) {
    throw new UsageError(
      `REDIS_CLUSTER names database ${named[2]} ("${node}"): a Redis Cluster has only database 0; drop the /${named[2]}`,
    );
  }
  return named[1] ?? node;
}

/** `scheme`: REDIS_CLUSTER's own (`rediss` for TLS), kept in the form a refusal tells to write. */
function readCredentials(text: string, scheme: string): { username?: string; password?: string } {
  const colon = text.indexOf(':');
  if (colon < 0) {
    throw new UsageError(
      `REDIS_CLUSTER names a user without a password: write ${scheme}://USER:PASSWORD@host:port,… or ${scheme}://:PASSWORD@host:port,…`,
    );
  }
  try {
    const username = decodeURIComponent(text.slice(0, colon));
    const password = decodeURIComponent(text.slice(colon + 1));
    if (password === '') throw new UsageError('REDIS_CLUSTER gives an empty password after the colon');
    return username === '' ? { password } : { username, password };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      "REDIS_CLUSTER's user or password is not URL-encoded right (a % not followed by two hex digits)",
    );
  }
}

/** How a cluster is named in messages (REDIS_URL's place): its nodes, the password masked. */
export function clusterDisplay(target: RedisClusterTarget): string {
  const user = target.username ? encodeURIComponent(target.username) : '';
  const credentials = target.password === undefined ? '' : `${user}:***@`;
  return `${target.tls ? 'rediss' : 'redis'}-cluster://${credentials}${target.nodes.join(',')}`;
}
