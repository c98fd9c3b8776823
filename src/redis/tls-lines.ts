import { connect } from 'node:net';

/**
 * What a Redis's TLS (or its lack) says, in the words of the one line a failed connection gives
 * (connect.ts): a certificate for other names, and a port spoken to in the wrong one of redis:// and
 * rediss://.
 */

/**
 * rediss:// to a port that took the TCP connection but never answered the TLS hello: a port without
 * TLS (a Redis waits for the end of a command line that never comes), told apart from a host out of
 * reach, which ends in the same `connect ETIMEDOUT` from ioredis.
 */
export class TlsHandshakeTimeout extends Error {
  override name = 'TlsHandshakeTimeout';
  readonly code = 'ETIMEDOUT';
  constructor(cause: unknown) {
    super('TLS handshake timed out', { cause });
  }
}

/** How long the plain connection that tells a handshake timeout from a host out of reach may take. */
const PROBE_MS = 1000;

/**
 * The cause of a failed connection, a TlsHandshakeTimeout in the place of ioredis's `connect
 * ETIMEDOUT` when the URL is rediss:// and its port takes a plain TCP connection (only then: this
 * asks the same address once more, on the failure path only).
 */
export async function withHandshakeTimeout(url: string, cause: unknown, timeoutMs: number): Promise<unknown> {
  if ((cause as { code?: unknown } | null)?.code !== 'ETIMEDOUT') return cause;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return cause;
  }
  if (parsed.protocol !== 'rediss:') return cause;
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  const port = Number(parsed.port || 6379);
  return (await tcpAccepts(host, port, Math.min(timeoutMs, PROBE_MS)))
    ? new TlsHandshakeTimeout(cause)
    : cause;
}

function tcpAccepts(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** OpenSSL's and Node's words for an answer to the TLS hello that is no TLS (a plain Redis's `-ERR`). */
const NOT_TLS =
  /wrong version number|packet length too long|http request|unknown protocol|disconnected before secure TLS connection/i;

/**
 * The hint a failed connection's line ends its reason with when the scheme looks wrong for the port:
 * redis:// reset by a TLS port, rediss:// to a port that answers the TLS hello with no TLS or never.
 */
export function schemeHint(url: string, cause: unknown): string {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ECONNRESET' && /^redis(-cluster)?:\/\//.test(url))
    return '; if that port speaks TLS, use rediss://';
  if (!/^rediss(-cluster)?:\/\//.test(url)) return '';
  const reason = cause instanceof Error ? cause.message : String(cause);
  const notTls =
    cause instanceof TlsHandshakeTimeout ||
    code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' ||
    NOT_TLS.test(reason);
  return notTls ? '; if that port does not speak TLS, use redis://' : '';
}

/**
 * The names a certificate holds, from the error of a host-name mismatch (Node puts the peer's
 * certificate on it): its subjectAltName (`DNS:redis.internal, IP Address:10.0.0.5`), else its CN.
 */
function certificateNames(cause: unknown): string {
  const cert = (cause as { cert?: { subjectaltname?: string; subject?: { CN?: string } } }).cert;
  if (cert?.subjectaltname) return cert.subjectaltname;
  if (cert?.subject?.CN) return `CN=${cert.subject.CN}`;
  return 'other names';
}

/** The hosts a cluster's display (`rediss-cluster://:***@h1:7000,h2:7000`) names. */
function clusterHosts(url: string): string[] {
  const nodes = url.replace(/^rediss?-cluster:\/\/(?:[^@]*@)?/, '');
  return nodes.split(',').map((node) => node.slice(0, node.lastIndexOf(':')).replace(/^\[|\]$/g, ''));
}

/**
 * A certificate (of a trusted CA) for other names than the host connected to. Node checks the name
 * only once the chain is trusted: a CA to add would change nothing. On a cluster, a host it does not
 * list in REDIS_CLUSTER is one the cluster announced (CLUSTER SLOTS), which only the cluster changes.
 */
export function nameMismatchLine(
  server: { redis: string; at: string; variable: string; url: string },
  cause: unknown,
): string {
  const host = (cause as { host?: string }).host;
  const names = certificateNames(cause);
  const { redis, at, variable, url } = server;
  if (host && /^rediss?-cluster:\/\//.test(url) && !clusterHosts(url).includes(host)) {
    return `${redis} at ${at}: its TLS certificate is for ${names}, not ${host}, the address the cluster announces for a node: have its nodes announce the names their certificate holds (cluster-announce-hostname, cluster-preferred-endpoint-type hostname) (its CA is trusted here)`;
  }
  return `${redis} at ${at}: its TLS certificate is for ${names}, not ${host ?? 'the host named'}: name the server in ${variable} as its certificate does (its CA is trusted here)`;
}
