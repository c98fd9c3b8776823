import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_SOURCE_TIMEOUT_MS, MAX_REDIRECTS, STALL_MIN_BYTES } from '../defaults.js';
import { formatDuration } from '../duration.js';
import type { AddressKind } from '../net/address-policy.js';
import { failureWords } from '../net/failure-words.js';
import type { ByteSource } from './byte-source.js';
import { inflate } from './decompress.js';
import { extensionOf } from './detect-format.js';
import { SourceError, sourceError } from './source-error.js';
import { StallWatch } from './stall-watch.js';
import { type ConnectOptions, connectHop } from './url-connect.js';

export interface UrlSourceOptions extends ConnectOptions {
  /** The stall window (`--source-timeout`), ms. */
  sourceTimeoutMs?: number;
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
    `the feed stalled: less than ${STALL_MIN_BYTES / 1024} KiB in ${formatDuration(windowMs)} (--source-timeout)`,
  );
  const watch = new StallWatch(windowMs, () => {
    current?.destroy(stallError);
    response?.destroy(stallError);
  });

  let address: URL;
  try {
    address = new URL(url);
  } catch {
    // `http://[fe80::1%25lo]/…` and the like: a URL Node cannot parse is the user's, in one line.
    throw sourceError(label, 'is not a URL this tool can read (check its host and port)');
  }
  let from: AddressKind | undefined;
  const credentials = basicAuth(address);
  const origin = address.origin;
  try {
    for (let redirects = 0; ; redirects++) {
      const hop = await connectHop(
        address,
        from,
        label,
        options,
        redirects > 0 ? redactUrl(address.href) : null,
      );
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
        let next: IteratorResult<unknown>;
        try {
          next = await reader.next();
        } catch (error) {
          // The connection dropped mid-body (`aborted`, ECONNRESET): one line, as any unreadable source.
          if (error instanceof SourceError) throw error;
          throw sourceError(
            label,
            `the feed broke off after part of it was read: ${describeError(error, address.href, label)}`,
          );
        }
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
    ...(Number.isSafeInteger(length) && length >= 0 ? { wireLength: length } : {}),
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

/**
 * The cause in words with its code where there is one (`connection refused (ECONNREFUSED)`, a TLS
 * handshake's cause: failure-words.ts, as a store's); messages may repeat the URL, so no URL.
 */
function describeError(error: unknown, url: string, label: string): string {
  const code = (error as { code?: string } | undefined)?.code;
  if (code) return failureWords(error);
  const message = error instanceof Error ? error.message : String(error);
  return message.replaceAll(url, label);
}
