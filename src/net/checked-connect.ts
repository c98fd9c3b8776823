import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, connect as netConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { type AddressKind, describeAddress, readAddress, refusal } from './address-policy.js';

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

/** The network seams of source URLs and webhooks; tests inject both so that nothing leaves loopback. */
export interface NetworkSeams {
  lookup?: LookupFunction;
  connect?: Connector;
}

/** The address policy refused where a URL leads; nothing was sent there. */
export class AddressRefusedError extends Error {
  constructor(
    /** `host (address)`, or the address of a literal. */
    readonly where: string,
    /** What the address is (address-policy.ts `refusal`). */
    readonly why: string,
  ) {
    super(`${where} is ${why}`);
  }
}

/** The host resolved to no address at all. */
export class NoAddressError extends Error {}

export interface CheckedConnectOptions extends NetworkSeams {
  /** The kind of the address that sent a redirect here; undefined for the URL given. */
  from?: AddressKind;
  /** `--allow-private-source`, from the command line. */
  allowPrivate: boolean;
  /** A job file named the URL: loopback and private addresses too take `--allow-private-source`. */
  namedByJob?: boolean;
  /** Ends the lookup and the connection; `abortError` is what is thrown then. */
  signal: AbortSignal;
  abortError: () => Error;
}

/**
 * Resolves the URL's host once, refuses it when any address it resolves to is one the policy does
 * not allow, and connects to exactly an address it checked (the next one when a connection fails):
 * no second lookup, so a name that changes its answer (DNS rebinding) gains nothing.
 */
export async function connectChecked(
  url: URL,
  options: CheckedConnectOptions,
): Promise<{ socket: Duplex; kind: AddressKind }> {
  const { signal, abortError } = options;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname) !== 0;
  const addresses = literal
    ? [{ address: hostname, family: isIP(hostname) }]
    : await abortable((options.lookup ?? systemLookup)(hostname), signal, abortError);
  if (addresses.length === 0) throw new NoAddressError(`${hostname} has no address`);
  const tls = url.protocol === 'https:';
  const port = Number(url.port) || (tls ? 443 : 80);
  let lastError: unknown;
  for (const { address } of addresses) {
    const { kind } = readAddress(address);
    const refused = refusal(kind, options.from, options.allowPrivate, options.namedByJob === true);
    if (refused) {
      throw new AddressRefusedError(describeAddress(address, literal ? undefined : hostname), refused);
    }
    try {
      const target = { address, port, tls, servername: literal ? undefined : hostname };
      const connecting = (options.connect ?? systemConnect)(target, signal);
      // A socket that connects after the abort is closed, not leaked.
      connecting.then(
        (late) => signal.aborted && late.destroy(),
        () => undefined,
      );
      const socket = await abortable(connecting, signal, abortError);
      return { socket, kind };
    } catch (error) {
      if (signal.aborted) throw abortError();
      lastError = error;
    }
  }
  throw lastError;
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
