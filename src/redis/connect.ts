import type { Command, Redis } from 'ioredis';
import { ioredis } from '../cjs-packages.js';
import { DEFAULT_PREFIX, REDIS_CONNECT_TIMEOUT_MS } from '../defaults.js';
import { ClusterNodeError, clusterNodeLine, clusterStateOf } from './cluster-node-check.js';
import { applyInfoAccess, infoAccessOf, noteInfoRefused } from './info-access.js';
import { permissionRefusalLine } from './permission-refusal.js';
import { databaseIndexOf, redisUserOf } from './redis-url.js';
import { nameMismatchLine, schemeHint, withHandshakeTimeout } from './tls-lines.js';

/**
 * Redis could not be used at all: a configuration problem for the user, said in one line (exit 2).
 * The message names what happened (unreachable, a password wanted or rejected, a TLS certificate
 * not trusted) and never holds the password.
 */
export class RedisUnavailableError extends Error {
  override name = 'RedisUnavailableError';
  constructor(
    url: string,
    cause: unknown,
    /** The database the URL names, when Redis refused it (the line says which it has). */
    readonly asked?: DatabaseAsked,
  ) {
    super(describeConnectFailure(url, cause, asked ? { asked } : {}), { cause });
  }
}

/** The database REDIS_URL names, and how many the server has (its `databases`), when known. */
export interface DatabaseAsked {
  database: number;
  databases: number | null;
}

/** Redis refused the SELECT: a database it does not have, or a cluster node (database 0 only). */
function isDatabaseRefusal(cause: unknown): boolean {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return /DB index is out of range|SELECT is not allowed in cluster mode/i.test(reason);
}

/** The server's `databases` setting, for the message; null when CONFIG is refused (managed Redis). */
async function databaseCount(redis: Redis): Promise<number | null> {
  try {
    const [, count] = (await redis.config('GET', 'databases')) as string[];
    return count !== undefined && /^\d+$/.test(count) ? Number(count) : null;
  } catch {
    return null;
  }
}

/** The URL without its password, for messages and logs. */
export function displayRedisUrl(url: string): string {
  // A cluster's display (cluster-nodes.ts clusterDisplay) has its password masked already.
  if (isClusterDisplay(url)) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return '(invalid REDIS_URL)';
  }
}

const isClusterDisplay = (url: string) => /^rediss?-cluster:\/\//.test(url);

/** `redis://:PASSWORD@host:port`, the form that tells the user where the password goes. */
function withPasswordPlaceholder(url: string): string {
  if (isClusterDisplay(url)) {
    const [scheme = 'redis', nodes = 'host:port'] = url
      .replace(/^(rediss?)-cluster:\/\/(?:[^@]*@)?/, '$1 ')
      .split(' ');
    return `${scheme}://:PASSWORD@${nodes}`;
  }
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//:PASSWORD@${parsed.host}`;
  } catch {
    return 'redis://:PASSWORD@host:port';
  }
}

/** Node's codes for a certificate that the client does not accept. */
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
]);

/** Where a Redis URL came from, for the hint of the line that says it failed. */
export interface RedisUrlContext {
  /** The option or variable that gave it; none: the default, 127.0.0.1:6379. */
  from?: '--redis-url' | 'REDIS_URL';
  /** The checkout holding docker-compose.yml; none in a copy installed from npm, which lacks it. */
  composeFolder?: string;
  /** CATALOG_SYNC_PREFIX, for the grant of its keys when Redis refuses them (default unless told). */
  prefix?: string;
}

/** One line for a Redis that could not be used: what it said, in the tool's words. */
export function describeConnectFailure(
  url: string,
  cause: unknown,
  context: RedisUrlContext & { asked?: DatabaseAsked } = {},
): string {
  const at = displayRedisUrl(url);
  const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, ' ').trim();
  const code = (cause as { code?: unknown } | null)?.code;
  const cluster = isClusterDisplay(url);
  const redis = cluster ? 'Redis Cluster' : 'Redis';
  // `--redis-url` overrides REDIS_URL: a hint to change the variable would change nothing.
  const variable = cluster ? 'REDIS_CLUSTER' : (context.from ?? 'REDIS_URL');
  const { asked } = context;
  if (cause instanceof ClusterNodeError && !cluster) {
    return clusterNodeLine(context.from ?? 'REDIS_URL', at, url, cause.state);
  }
  if (asked && /SELECT is not allowed in cluster mode/i.test(reason)) {
    return `${variable} names database ${asked.database}, but Redis at ${at} is a cluster node (${reason}), which has only database 0: name the cluster's nodes in REDIS_CLUSTER instead`;
  }
  if (asked && /DB index is out of range/i.test(reason)) {
    const range =
      asked.databases === null
        ? 'it has fewer (its `databases` setting)'
        : `its databases are 0 to ${asked.databases - 1} (its \`databases\` setting)`;
    return `${variable} names database ${asked.database}, which Redis at ${at} does not have (${reason}): ${range}; name one of them in ${variable}, or none for database 0 (where runs of an earlier version with this URL went: their id maps and runs are there)`;
  }
  if (/^NOAUTH\b/.test(reason)) {
    return `${redis} at ${at} wants a password: put it in ${variable} as ${withPasswordPlaceholder(url)}`;
  }
  if (/^WRONGPASS\b|invalid password|invalid username-password/i.test(reason)) {
    return `${redis} at ${at} rejected the password (${reason}): check the one in ${variable}`;
  }
  if (/^NOPERM\b/.test(reason)) {
    // Said as a refusal met later is (redis-room.ts): the user, the command and its grant.
    return permissionRefusalLine(reason, {
      server: redis,
      at,
      user: redisUserOf(url),
      prefix: context.prefix ?? DEFAULT_PREFIX,
      next: 'then run the command again',
    });
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return nameMismatchLine({ redis, at, variable, url }, cause);
  if (code === 'CERT_HAS_EXPIRED') {
    return `${redis} at ${at}: its TLS certificate has expired (${reason}): the server's certificate must be renewed (or this machine's clock is wrong)`;
  }
  if (code === 'CERT_NOT_YET_VALID') {
    return `${redis} at ${at}: its TLS certificate is not valid yet (${reason}): check this machine's clock and the server's`;
  }
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code)) {
    return (
      `${redis} at ${at}: its TLS certificate is not trusted here (${reason}); ` +
      `give its CA with NODE_EXTRA_CA_CERTS=/path/to/ca.pem, or check the host name in ${variable}`
    );
  }
  const tlsHint = schemeHint(url, cause);
  if (cluster) {
    if (/cluster support disabled/i.test(reason)) {
      return `Redis at ${at} is not a cluster (${reason}): name it in REDIS_URL, and leave REDIS_CLUSTER unset`;
    }
    // ioredis tells a refused or silent node only as a closed connection.
    const said = /Connection is closed|None of startup nodes/i.test(reason) ? 'no node answered' : reason;
    return `Redis Cluster is not reachable at ${at} (${said}${tlsHint}). Check REDIS_CLUSTER: every master must be reachable from here.`;
  }
  const failed = `Redis is not reachable at ${at} (${reason}${tlsHint}).`;
  if (context.from === '--redis-url') return `${failed} Check --redis-url, or start the Redis it names.`;
  if (context.from === 'REDIS_URL')
    return `${failed} Check REDIS_URL (now ${at}), or start the Redis it names.`;
  // docker-compose.yml's Redis asks for a password (from .env): a URL without one gets NOAUTH.
  const compose = context.composeFolder
    ? `, or in ${context.composeFolder} \`docker compose up -d redis\` with REDIS_PASSWORD in .env as .env.example shows, then REDIS_URL=redis://:PASSWORD@127.0.0.1:6379`
    : '';
  return `${failed} Start one (the \`redis-server\` package${compose}), or set REDIS_URL to yours.`;
}

export interface ConnectOptions {
  /** How long the first connection may take before we say Redis is unreachable. */
  connectTimeoutMs?: number;
  connectionName?: string;
}

/**
 * An ioredis client that reports every command Redis answers with an error (`command-error`), also
 * the commands BullMQ sends on it: the first write Redis refuses (full, read-only) is seen the moment
 * it is answered, wherever it was sent from (health.ts).
 */
export class WatchedRedis extends ioredis().Redis {
  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    const sent = super.sendCommand(command, stream);
    command.promise.catch((error: unknown) => this.emit('command-error', error));
    return sent;
  }
}

/**
 * Connects and proves the connection with a PING, failing fast with one line when nothing answers
 * or Redis refuses us (password, TLS), or is a node of a cluster (REDIS_CLUSTER's). Once connected, the client reconnects on its own: a Redis
 * restarted mid-run (with AOF) is waited for. `maxRetriesPerRequest: null` is what BullMQ requires
 * of connections its workers use. `rediss://` connects with TLS (Node's trusted CAs, plus
 * NODE_EXTRA_CA_CERTS).
 */
export async function connectRedis(url: string, options: ConnectOptions = {}): Promise<WatchedRedis> {
  let parsedOk = true;
  try {
    new URL(url);
  } catch {
    parsedOk = false;
  }
  if (!parsedOk || !/^rediss?:$/.test(new URL(url).protocol)) {
    throw new RedisUnavailableError(url, new Error('REDIS_URL must look like redis://host:6379'));
  }
  const redis = new WatchedRedis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: null,
    connectTimeout: options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
    connectionName: options.connectionName ?? 'catalog-sync',
    retryStrategy: () => null,
    // Its INFO may be refused: turned on below once INFO is known to be granted (info-access.ts).
    enableReadyCheck: false,
  });
  // Errors surface through the commands that fail; an 'error' event without a listener would crash.
  // While connecting, the event holds the cause (NOAUTH, a certificate) that `connect` reports only
  // as "Connection is closed.".
  let cause: unknown = null;
  const remember = (error: unknown) => {
    cause ??= error;
  };
  redis.on('error', remember);
  redis.on('error', () => {});
  const database = databaseIndexOf(url, 'REDIS_URL');
  try {
    await redis.connect();
    const access = await infoAccessOf(redis);
    applyInfoAccess(redis.options, access);
    if (access === 'refused') noteInfoRefused(redis);
    await redis.ping();
    // ioredis SELECTs it as it connects, but when Redis refuses (a database it does not have) it
    // only says so in an 'error' event and goes on in database 0: selected again here, so that a
    // refusal ends the command before anything is written to another database than the one named.
    if (database !== 0) await redis.select(database);
    // Database 0 of a cluster node is taken (SELECT 0 too): CLUSTER INFO tells (cluster-node-check.ts).
    else {
      const state = await clusterStateOf(redis);
      if (state !== null) throw new ClusterNodeError(state);
    }
  } catch (error) {
    const refusal =
      error instanceof ClusterNodeError
        ? error
        : await withHandshakeTimeout(
            url,
            cause ?? error,
            options.connectTimeoutMs ?? REDIS_CONNECT_TIMEOUT_MS,
          );
    const databases = isDatabaseRefusal(refusal) ? await databaseCount(redis) : null;
    redis.disconnect();
    throw new RedisUnavailableError(url, refusal, { database, databases });
  } finally {
    redis.off('error', remember);
  }
  redis.options.retryStrategy = (attempt: number) => Math.min(attempt * 250, 2000);
  return redis;
}
