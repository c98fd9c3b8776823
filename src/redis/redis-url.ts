import { UsageError } from '../usage-error.js';

/**
 * Refuses, in one line naming where it came from (`--redis-url` or `REDIS_URL`), a Redis URL that
 * connect.ts could not connect to: not a URL, or not redis:// or rediss:// (both slashes, then a
 * host), or a database index that is no whole number. The URL is never quoted: it may hold a
 * password. Said before the connection, which only knew it as "(invalid REDIS_URL)".
 */
export function checkRedisUrl(url: string, origin: string): void {
  // A node list (`redis://…@h1:7000,h2:7000`), REDIS_CLUSTER's form: said as such, not as "not a URL".
  const authority = /^(rediss?):\/\/([^/?#]*)/i.exec(url);
  const hosts = authority?.[2]?.slice(authority[2].lastIndexOf('@') + 1) ?? '';
  if (hosts.includes(',')) {
    const scheme = authority?.[1]?.toLowerCase();
    // --redis-url goes before REDIS_CLUSTER (flags override variables): it must go for REDIS_CLUSTER to count.
    const andThen = origin === '--redis-url' ? ', and no --redis-url' : '';
    throw new UsageError(
      `${origin} lists several hosts, but it names one Redis server: name a Redis Cluster's nodes in REDIS_CLUSTER (${scheme}://USER:PASSWORD@host:port,host:port,…)${andThen}`,
    );
  }
  let scheme: string | null = null;
  let host = '';
  try {
    ({ protocol: scheme, hostname: host } = new URL(url));
  } catch {}
  // redis: is no special scheme to WHATWG URL: `redis:/h:6379` (a slash short) or `redis:///h:6379`
  // parse, with no host and the rest as the path, which read as a database named "h:6379" (and
  // quoted a password before the host). Both slashes and a host, or the URL is malformed.
  const malformed = !/^rediss?:\/\//i.test(url) || host === '';
  if ((scheme !== 'redis:' && scheme !== 'rediss:') || malformed)
    throw new UsageError(
      `${origin} is not a valid Redis URL: it must look like redis://host:6379 (rediss:// for TLS)`,
    );
  databaseIndexOf(url, origin);
}

/**
 * The database a Redis URL names: its path (`redis://host:6379/3`), or ioredis' `?db=3`; 0 when it
 * names none. ioredis would SELECT whatever it is given and, refused, go on in database 0: so what
 * it is given is checked here (connect.ts checks that the server took it).
 */
export function databaseIndexOf(url: string, origin: string): number {
  const parsed = new URL(url);
  const inPath = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const inQuery = parsed.searchParams.get('db');
  const indexOf = (text: string): number => {
    if (!/^\d{1,9}$/.test(text))
      throw new UsageError(
        `${origin} names database "${text}": a database index is a whole number (0, 1, …)`,
      );
    return Number(text);
  };
  const path = inPath === '' ? null : indexOf(inPath);
  const query = inQuery === null ? null : indexOf(inQuery);
  if (path !== null && query !== null && path !== query)
    throw new UsageError(`${origin} names database ${path} in its path and ${query} in ?db=: name one`);
  return path ?? query ?? 0;
}

/**
 * The ACL user a Redis URL names, as a line shows it: REDIS_URL's, or that of a cluster's display
 * (`redis-cluster://app:***@…`, cluster-nodes.ts); `default`, Redis's own, when it names none.
 */
export function redisUserOf(url: string): string {
  const cluster = /^rediss?-cluster:\/\/([^:@/]*):[^@]*@/.exec(url);
  try {
    const name = cluster ? cluster[1] : /^rediss?-cluster:/.test(url) ? '' : new URL(url).username;
    return decodeURIComponent(name ?? '') || 'default';
  } catch {
    return 'default';
  }
}
