import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, connect as netConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { formatDuration } from '../duration.js';
import { type AddressKind, classifyAddress, refusal } from './address-policy.js';
import { sourceError } from './source-error.js';

/** Resolving the name and connecting (TLS included) has this long, for each hop. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Resolves a host name to its addresses, in the order to try them (`dns.lookup` with `all`). */
export type LookupFunction = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

/** Where to connect: always an address that a lookup returned and the policy allowed. */
export interface ConnectTarget {
  address: string;
  port: number;
  tls: boolean;
  /** The URL's host name, for TLS (SNI and the certificate check); undefined for an IP literal. */
  servername: string | undefined;
}

/** Opens a connected socket (TLS handshake done for https) to exactly `target.address`. */
export type Connector = (target: ConnectTarget, signal: AbortSignal) => Promise<Duplex>;

/** The network seams of a URL source; tests inject both so that nothing leaves loopback. */
export interface SourceNetwork {
  lookup?: LookupFunction;
  connect?: Connector;
}

/** What a hop's connection may reach, and how long it has. */
export interface ConnectOptions extends SourceNetwork {
  /** `--allow-private-source`. */
  allowPrivateSource?: boolean;
  connectTimeoutMs?: number;
}

/**
 * Resolves the hop's host once, refuses an address the policy does not allow, and connects to
 * exactly that address (the next allowed one when a connection fails), within the connect time-out.
 */
export async function connectHop(
  url: URL,
  from: AddressKind | undefined,
  label: string,
  options: ConnectOptions,
  /** The redirect's target as messages show it (redactUrl), or null for the URL given. */
  redirectedTo: string | null,
): Promise<{ socket: Duplex; kind: AddressKind }> {
  const limit = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limit);
  const timedOut = () =>
    sourceError(
      label,
      `cannot fetch the feed: could not connect to ${url.host} within ${formatDuration(limit)}`,
    );
  try {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    const literal = isIP(hostname) !== 0;
    const addresses = literal
      ? [{ address: hostname, family: isIP(hostname) }]
      : await abortable((options.lookup ?? systemLookup)(hostname), controller.signal, timedOut);
    if (addresses.length === 0) throw sourceError(label, `cannot fetch the feed: ${hostname} has no address`);
    const tls = url.protocol === 'https:';
    const port = Number(url.port) || (tls ? 443 : 80);
    let lastError: unknown;
    for (const { address } of addresses) {
      const kind = classifyAddress(address);
      const refused = refusal(kind, from, options.allowPrivateSource === true);
      if (refused) {
        const where = literal ? address : `${hostname} (${address})`;
        throw sourceError(
          label,
          redirectedTo !== null
            ? `redirect refused to ${redirectedTo}: ${where} is ${refused}; --allow-private-source allows it`
            : `refused: ${where} is ${refused}; --allow-private-source allows it`,
        );
      }
      try {
        const target = { address, port, tls, servername: literal ? undefined : hostname };
        const connecting = (options.connect ?? systemConnect)(target, controller.signal);
        // A socket that connects after the time-out is closed, not leaked.
        connecting.then(
          (late) => controller.signal.aborted && late.destroy(),
          () => undefined,
        );
        const socket = await abortable(connecting, controller.signal, timedOut);
        return { socket, kind };
      } catch (error) {
        if (controller.signal.aborted) throw timedOut();
        lastError = error;
      }
    }
    throw lastError;
  } finally {
    clearTimeout(timer);
  }
}

const systemLookup: LookupFunction = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The real connection: to the address given, never a name (no second lookup). */
const systemConnect: Connector = (target, signal) =>
  new Promise((resolve, reject) => {
    const refuseLookup = () => {
      throw new Error('no lookup: the address is resolved already');
    };
    const socket = target.tls
      ? tlsConnect({
          host: target.address,
          port: target.port,
          ...(target.servername ? { servername: target.servername } : {}),
          ALPNProtocols: ['http/1.1'],
          lookup: refuseLookup as never,
        })
      : netConnect({ host: target.address, port: target.port, lookup: refuseLookup as never });
    const abort = () => socket.destroy();
    signal.addEventListener('abort', abort, { once: true });
    socket.once(target.tls ? 'secureConnect' : 'connect', () => {
      signal.removeEventListener('abort', abort);
      socket.removeListener('error', reject);
      resolve(socket);
    });
    socket.once('error', (error) => {
      signal.removeEventListener('abort', abort);
      reject(error);
    });
  });

function abortable<T>(promise: Promise<T>, signal: AbortSignal, error: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(error());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(error());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (reason: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(reason);
      },
    );
  });
}
