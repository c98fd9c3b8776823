import { type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressKind } from '../../net/address-policy.js';
import { failureWords } from '../../net/failure-words.js';
import { isTlsMisfit } from '../../net/tls-words.js';
import { SourceError, sourceError } from '../source-error.js';
import { type ConnectOptions, ConnectTimeoutError, connectHop } from '../url-connect.js';
import { StoreStall } from './store-stall.js';
import type { StoreReadOptions } from './types.js';

/** What one call to a store's API is given: the address policy and its seams, as a feed's. */
export interface CallOptions extends ConnectOptions {
  /** The most bytes an answer may hold (an API page, a poll): more is the store misbehaving. */
  maxBytes: number;
  /** Less than 1 KiB in any window this long ends the call (`--source-timeout`: store-stall.ts). */
  timeoutMs: number;
  /** The kind of the address that gave this URL (the API, for a result URL); undefined for the store. */
  from?: AddressKind;
  /** The read given up (an interrupt): the call ends at once with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** The connection part of every call a store reader makes: the address policy, its seams, the time-outs. */
export function connectionOf(
  options: Pick<
    StoreReadOptions,
    'network' | 'allowPrivateSource' | 'connectTimeoutMs' | 'timeoutMs' | 'signal'
  >,
): ConnectOptions & Pick<CallOptions, 'timeoutMs' | 'signal'> {
  return {
    ...options.network,
    allowPrivateSource: options.allowPrivateSource,
    ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/**
 * A call that failed on the way (no connection, a connection broken, an answer broken off), which
 * another try may get through: `sent` false when the request never left (any call may be tried
 * again), true when it may have reached the store (only a read may: store-tries.ts).
 */
export class StoreCallFailure extends SourceError {
  override name = 'StoreCallFailure';
  constructor(
    message: string,
    readonly sent: boolean,
  ) {
    super(message);
  }
}

/** An answer longer than the call's `maxBytes`: a reader that can ask for less (smaller pages) does. */
export class StoreAnswerTooLong extends SourceError {
  override name = 'StoreAnswerTooLong';
}

export interface CallAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The kind of address that answered, for the URLs it gives. */
  kind: AddressKind;
}

/**
 * One request to a store, over node:http on a connection the address policy checked (as a feed's):
 * no redirect is followed (an API that redirects is answered as it is), the answer is read whole up
 * to `maxBytes`. `label` names the store in messages; the URL's query, which never holds a secret
 * here, is not shown either.
 */
export async function callStore(
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  label: string,
  options: CallOptions,
): Promise<CallAnswer> {
  const { socket, kind } = await connectStore(url, label, options);
  const stall = new StoreStall(label, options.timeoutMs, 'the store');
  const unwatch = endOnAbort(socket, options.signal);
  try {
    const answer = await send(socket, url, init, label, stall);
    const body = await readBody(answer, label, options, stall);
    return { status: answer.statusCode ?? 0, headers: answer.headers, body, kind };
  } catch (error) {
    // Given up: the reason, not the broken connection it left.
    options.signal?.throwIfAborted();
    throw error;
  } finally {
    unwatch();
    stall.dispose();
    // One connection per call: the next call is checked by the address policy again.
    socket.destroy();
  }
}

/**
 * Sends the request on the checked socket and resolves with the answer's head, for the caller to
 * stream (json-lines.ts watches the body's stalls itself).
 */
export async function openCall(
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  label: string,
  options: Omit<CallOptions, 'maxBytes'>,
): Promise<IncomingMessage> {
  const { socket } = await connectStore(url, label, options);
  const stall = new StoreStall(label, options.timeoutMs, 'the store');
  // Until the answer's body is read: json-lines.ts destroys the answer, its socket with it.
  endOnAbort(socket, options.signal);
  try {
    return await send(socket, url, init, label, stall);
  } catch (error) {
    options.signal?.throwIfAborted();
    throw error;
  } finally {
    stall.dispose();
  }
}

/**
 * Destroys the call's connection when the read is given up (an interrupt), so that the request,
 * or the answer being read, ends at once and not when the store answers or `--source-timeout` comes.
 * Returns what stops watching.
 */
function endOnAbort(socket: Duplex, signal: AbortSignal | undefined): () => void {
  if (!signal) return () => {};
  const end = () => socket.destroy(signal.reason instanceof Error ? signal.reason : undefined);
  if (signal.aborted) end();
  else signal.addEventListener('abort', end, { once: true });
  socket.once('close', () => signal.removeEventListener('abort', end));
  return () => signal.removeEventListener('abort', end);
}

/**
 * The checked connection of one call. Refused by the address policy, or a host with no address:
 * as connectHop says. Any other failure (refused, unreachable, not connected in time) is one line
 * naming the store and the cause, never the raw system error (which Node prints with a stack); a
 * TLS handshake that fails on what the server presents is not tried again (store-tries.ts).
 */
async function connectStore(
  url: URL,
  label: string,
  options: Pick<CallOptions, keyof ConnectOptions | 'from' | 'signal'>,
): Promise<Awaited<ReturnType<typeof connectHop>>> {
  options.signal?.throwIfAborted();
  try {
    const connected = await connectHop(url, options.from, label, options, null, 'cannot reach the store');
    if (options.signal?.aborted) connected.socket.destroy();
    options.signal?.throwIfAborted();
    return connected;
  } catch (error) {
    options.signal?.throwIfAborted();
    if (error instanceof ConnectTimeoutError) throw new StoreCallFailure(error.message, false);
    if (error instanceof SourceError) throw error;
    const line = `${label}: cannot reach the store: ${failureWords(error)}`;
    // Plain HTTP behind https://, a certificate not trusted: no other try gets through.
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (isTlsMisfit(typeof code === 'string' ? code : null, String(message ?? '')))
      throw new SourceError(line);
    throw new StoreCallFailure(line, false);
  }
}

function send(
  socket: Duplex,
  url: URL,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  label: string,
  stall: StoreStall,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    let req: ReturnType<typeof request>;
    try {
      req = request({
        method: init.method,
        path: `${url.pathname}${url.search}`,
        headers: {
          host: url.host,
          'user-agent': 'catalog-sync',
          accept: 'application/json',
          ...init.headers,
          ...(init.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(init.body)) }),
        },
        createConnection: () => socket as never,
      });
    } catch (error) {
      // A header value Node refuses (ERR_INVALID_CHAR: a credential with a line break): nothing was
      // sent, and no try sends it; one line naming the header, never its value.
      reject(sourceError(label, refusedHeader(error)));
      return;
    }
    stall.watching(req, false);
    req.once('response', (answer) => {
      stall.watch.stopWaiting();
      resolve(answer);
    });
    // Connected: the request may have reached the store before the connection broke.
    req.once('error', (error) => {
      stall.watch.stopWaiting();
      reject(
        error instanceof SourceError
          ? error
          : new StoreCallFailure(`${label}: the store broke the connection: ${failureWords(error)}`, true),
      );
    });
    stall.watch.startWaiting();
    req.end(init.body);
  });
}

function refusedHeader(error: unknown): string {
  const header = /\["([^"]+)"\]/.exec(error instanceof Error ? error.message : '')?.[1];
  const code = (error as { code?: unknown }).code;
  return header
    ? `the header ${header} holds a character no HTTP header may carry (${String(code)}): check its variable`
    : `the request could not be made: ${failureWords(error)}`;
}

async function readBody(
  answer: IncomingMessage,
  label: string,
  options: CallOptions,
  stall: StoreStall,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stall.chunksOf(answer)) {
      size += chunk.length;
      if (size > options.maxBytes) {
        answer.destroy();
        throw new StoreAnswerTooLong(
          `${label}: an answer of the store is longer than ${options.maxBytes} bytes`,
        );
      }
      chunks.push(chunk);
    }
  } catch (error) {
    throw error instanceof SourceError
      ? error
      : new StoreCallFailure(`${label}: the store's answer broke off: ${failureWords(error)}`, true);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** An answer's JSON, or one line saying the store sent something else. */
export function parseJson(body: string, label: string, what: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw sourceError(label, `${what} is not JSON`);
  }
}

/** `Retry-After` in seconds or as a date, in ms; null when absent or unreadable. */
export function retryAfterMs(headers: IncomingHttpHeaders, now: number): number | null {
  const value = headers['retry-after'];
  if (typeof value !== 'string' || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
