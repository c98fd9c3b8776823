import { lookup as dnsLookup } from 'node:dns/promises';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { isIP, connect as netConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import { type AddressKind, classifyAddress, refusal } from './address-policy.js';
import type { ByteSource } from './byte-source.js';
import { inflate } from './decompress.js';
import { extensionOf } from './detect-format.js';
import { SourceError, sourceError } from './source-error.js';
import { STALL_MIN_BYTES, StallWatch } from './stall-watch.js';

/** `--source-timeout`'s default: less than 1 KiB in 30 s is a stall. */
export const DEFAULT_SOURCE_TIMEOUT_MS = 30_000;
/** Resolving the name and connecting (TLS included) has this long, for each hop. */
export const CONNECT_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;

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

export interface UrlSourceOptions extends SourceNetwork {
  /** The stall window (`--source-timeout`), ms. */
  sourceTimeoutMs?: number;
  /** `--allow-private-source`. */
  allowPrivateSource?: boolean;
  connectTimeoutMs?: number;
}

/** A URL fit for messages and logs: no user, password, query or fragment (they may hold a token). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, '');
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * Streams a feed over node:http (not fetch: the address a name resolves to must be checked and then
 * be the very address connected to, leaving no window for DNS rebinding). http and https only; at
 * most 5 redirects; connecting has 10 s; then the stall rule (`StallWatch`) bounds every wait for
 * bytes. gzip and deflate `Content-Encoding` are inflated here, as the bytes are read.
 */
export async function openUrl(url: string, options: UrlSourceOptions = {}): Promise<ByteSource> {
  const label = redactUrl(url);
  const windowMs = options.sourceTimeoutMs ?? DEFAULT_SOURCE_TIMEOUT_MS;
  let current: ClientRequest | undefined;
  let response: IncomingMessage | undefined;
  const stallError = sourceError(
    label,
    `the feed stalled: less than ${STALL_MIN_BYTES / 1024} KiB in ${formatMs(windowMs)} (--source-timeout)`,
  );
  const watch = new StallWatch(windowMs, () => {
    current?.destroy(stallError);
    response?.destroy(stallError);
  });

  let address = new URL(url);
  let from: AddressKind | undefined;
  const credentials = basicAuth(address);
  const origin = address.origin;
  try {
    for (let redirects = 0; ; redirects++) {
      const hop = await connectHop(address, from, label, options, redirects > 0);
      const answer = await get(
        hop.socket,
        address,
        origin === address.origin ? credentials : undefined,
        watch,
        (req) => {
          current = req;
        },
      );
      const location = answer.headers.location;
      if (REDIRECTS.has(answer.statusCode ?? 0) && location) {
        answer.destroy();
        hop.socket.destroy();
        if (redirects >= MAX_REDIRECTS) {
          throw sourceError(
            label,
            `more than ${MAX_REDIRECTS} redirects (the last to ${redactUrl(location)})`,
          );
        }
        const next = resolveLocation(location, address, label);
        from = hop.kind;
        address = next;
        continue;
      }
      if ((answer.statusCode ?? 0) < 200 || (answer.statusCode ?? 0) > 299) {
        answer.destroy();
        hop.socket.destroy();
        throw new SourceError(
          `feed answered ${`${answer.statusCode} ${answer.statusMessage ?? ''}`.trim()}: ${label}`,
        );
      }
      response = answer;
      return bodySource(label, address, answer, watch);
    }
  } catch (error) {
    watch.dispose();
    current?.destroy();
    throw error instanceof SourceError
      ? error
      : sourceError(label, `cannot fetch the feed: ${describeError(error, url, label)}`);
  }
}

/** The body, inflated when the server compressed it; every wait for a piece of it is watched. */
function bodySource(label: string, address: URL, answer: IncomingMessage, watch: StallWatch): ByteSource {
  async function* wire(): AsyncGenerator<Uint8Array> {
    const reader = answer[Symbol.asyncIterator]();
    try {
      for (;;) {
        watch.startWaiting();
        const next = await reader.next();
        watch.stopWaiting();
        if (next.done) return;
        const chunk = next.value as Buffer;
        watch.received(chunk.length);
        yield chunk;
      }
    } finally {
      watch.dispose();
      answer.destroy();
    }
  }
  const encoding = String(answer.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let chunks: AsyncGenerator<Uint8Array>;
  if (encoding === 'identity' || encoding === '') chunks = wire();
  else if (encoding === 'gzip' || encoding === 'x-gzip') chunks = inflate(wire(), 'gzip', label);
  else if (encoding === 'deflate') chunks = inflate(wire(), 'deflate', label);
  else {
    answer.destroy();
    watch.dispose();
    throw sourceError(
      label,
      `the feed is sent with Content-Encoding ${encoding}, which this tool cannot read`,
    );
  }
  let closed = false;
  // The body's length, when the feed says it and sends it as is (a compressed body inflates).
  const length = Number(answer.headers['content-length'] ?? Number.NaN);
  const identity = encoding === 'identity' || encoding === '';
  return {
    label,
    extension: extensionOf(address.pathname),
    ...(identity && Number.isSafeInteger(length) && length > 0 ? { size: length } : {}),
    chunks,
    async close() {
      if (closed) return;
      closed = true;
      watch.dispose();
      answer.destroy();
      await chunks.return(undefined).catch(() => undefined);
    },
  };
}

/**
 * Resolves the hop's host once, refuses an address the policy does not allow, and connects to
 * exactly that address (the next allowed one when a connection fails), within the connect time-out.
 */
async function connectHop(
  url: URL,
  from: AddressKind | undefined,
  label: string,
  options: UrlSourceOptions,
  redirected: boolean,
): Promise<{ socket: Duplex; kind: AddressKind }> {
  const limit = options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), limit);
  const timedOut = () =>
    sourceError(label, `cannot fetch the feed: could not connect to ${url.host} within ${formatMs(limit)}`);
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
          redirected
            ? `redirect refused to ${redactUrl(url.href)}: ${where} is ${refused}; --allow-private-source allows it`
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

/** Sends the GET on the connected socket; resolves with the answer's head. Waiting for it is watched. */
function get(
  socket: Duplex,
  url: URL,
  authorization: string | undefined,
  watch: StallWatch,
  onRequest: (req: ClientRequest) => void,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request({
      method: 'GET',
      path: `${url.pathname}${url.search}`,
      headers: {
        host: url.host,
        'accept-encoding': 'gzip, deflate',
        'user-agent': 'catalog-sync',
        ...(authorization ? { authorization } : {}),
      },
      createConnection: () => socket as never,
    });
    onRequest(req);
    req.once('response', (answer) => {
      watch.stopWaiting();
      resolve(answer);
    });
    req.on('error', (error) => {
      watch.stopWaiting();
      reject(error);
    });
    watch.startWaiting();
    req.end();
  });
}

/** A redirect's target, refused unless http or https. */
function resolveLocation(location: string, base: URL, label: string): URL {
  let next: URL;
  try {
    next = new URL(location, base);
  } catch {
    throw sourceError(label, `redirect refused to "${redactUrl(location)}": not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw sourceError(label, `redirect refused to ${redactUrl(next.href)}: only http and https are read`);
  }
  return next;
}

/**
 * Credentials in the URL (`user:password@`) travel as HTTP Basic authentication, to the URL's own
 * origin only (never to where a redirect leads).
 */
function basicAuth(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
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

function formatMs(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/** The cause's code where there is one (ECONNREFUSED, ENOTFOUND); messages may repeat the URL, so no URL. */
function describeError(error: unknown, url: string, label: string): string {
  const code = (error as { code?: string } | undefined)?.code;
  if (code) return code;
  const message = error instanceof Error ? error.message : String(error);
  return message.replaceAll(url, label);
}
