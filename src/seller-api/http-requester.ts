import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { CONNECT_TIMEOUT_MS, IDLE_SOCKET_MS } from '../defaults.js';
import { setOwn } from '../named-values.js';
import { ConnectionFailure } from './errors/connection-failure.js';
import { TlsHandshakeFailure } from './errors/tls-handshake.js';
import { ACCEPT_ENCODING, readBody } from './http-body.js';
import type { HttpRequester, HttpResponse } from './http-exchange.js';

/**
 * The Seller API over node:http and node:https with keep-alive agents: about a third of the CPU
 * per request of `fetch` (undici through web streams; issue 12). Same contract as the fetch it
 * replaces: redirects are answers (never followed), one timeout covers connect, headers and body,
 * failures reject with the Node error (errors/from-failure.ts reads its `code`), wrapped to say
 * whether the connection had been made (errors/connection-failure.ts, errors/tls-handshake.ts).
 */
export interface ClosableRequester extends HttpRequester {
  /** Closes the pooled sockets. Not needed to let a process exit: idle sockets are unref'd. */
  close(): void;
}

export interface HttpRequesterOptions {
  /** Sockets per origin: the process's concurrency, so no request waits for a socket. Default: no limit. */
  maxSockets?: number;
}

// A connection not made within CONNECT_TIMEOUT_MS fails as `UND_ERR_CONNECT_TIMEOUT`, as it did under
// fetch (undici's connect timeout): unreached.ts and from-failure.ts know that code as "never
// reached", so a POST to a host that never answered a SYN is not counted as possibly applied.
const CONNECT_TIMEOUT_CODE = 'UND_ERR_CONNECT_TIMEOUT';

export function createHttpRequester(options: HttpRequesterOptions = {}): ClosableRequester {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? Number.POSITIVE_INFINITY,
    timeout: IDLE_SOCKET_MS,
  };
  const agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  const requester: HttpRequester = ({ method, url, headers, body, timeoutMs }) =>
    new Promise((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const request = (secure ? httpsRequest : httpRequest)(url, {
        method,
        agent: secure ? agents.https : agents.http,
        headers: {
          ...headers,
          'Accept-Encoding': ACCEPT_ENCODING,
          ...(body === undefined ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }),
        },
      });
      let response: IncomingMessage | undefined;
      // Between TCP connect and TLS up, a failure is the handshake's (errors/tls-handshake.ts).
      let handshaking = false;
      // Before the connection is up (TLS too, for https) not a byte of the request has left: the
      // API neither applied nor counted it. After, it may have: when in doubt, it was sent.
      let connected = false;
      const timer = setTimeout(() => {
        const error = timeoutError(timeoutMs);
        response?.destroy(error);
        request.destroy(error);
      }, timeoutMs);
      // A failure before the answer rejects; one after it ends the body being read.
      request.on('error', (error) => {
        if (response) {
          response.destroy(error);
          return;
        }
        clearTimeout(timer);
        reject(handshaking ? new TlsHandshakeFailure(error) : new ConnectionFailure(error, connected));
      });
      request.once('socket', (socket) => {
        limitConnect(request, socket, secure, url);
        // A pooled socket was connected (and secured) long ago; a new one connects, then is secured.
        if (!socket.connecting) {
          connected = true;
          return;
        }
        socket.once(secure ? 'secureConnect' : 'connect', () => {
          connected = true;
        });
        if (!secure) return;
        socket.once('connect', () => {
          handshaking = true;
        });
        socket.once('secureConnect', () => {
          handshaking = false;
        });
      });
      request.once('response', (answer) => {
        response = answer;
        resolve(answerOf(method, answer, timer));
      });
      request.end(body);
    });
  return Object.assign(requester, {
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  });
}

let shared: ClosableRequester | undefined;

/** The process's requester for clients given no other: one pool of sockets for all of them. */
export function sharedHttpRequester(): ClosableRequester {
  shared ??= createHttpRequester();
  return shared;
}

function answerOf(method: string, answer: IncomingMessage, timer: NodeJS.Timeout): HttpResponse {
  return {
    status: answer.statusCode ?? 0,
    statusText: answer.statusMessage ?? '',
    headers: joinedHeaders(answer.rawHeaders),
    readBounded: (max) => readBody(method, answer, max).finally(() => clearTimeout(timer)),
  };
}

/**
 * Lower-cased names, repeated headers joined with `, `: what `fetch`'s Headers gave the client.
 * Built as a plain object, no Map in between; a header named `__proto__` is an own property like
 * any other (named-values.ts).
 */
export function joinedHeaders(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] as string).toLowerCase();
    const value = raw[i + 1] as string;
    setOwn(headers, name, Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value);
  }
  return headers;
}

/** A new connection not made (TCP, and TLS for https) within CONNECT_TIMEOUT_MS fails as undici's did. */
function limitConnect(request: ClientRequest, socket: Socket, secure: boolean, url: URL): void {
  if (!socket.connecting) return;
  const timer = setTimeout(() => {
    const error = Object.assign(
      new Error(`Connect Timeout Error (attempted address: ${url.host}, timeout: ${CONNECT_TIMEOUT_MS}ms)`),
      { code: CONNECT_TIMEOUT_CODE },
    );
    request.destroy(error);
  }, CONNECT_TIMEOUT_MS);
  socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
}

/** Named as AbortSignal.timeout's error, which errors/from-failure.ts reads as a TimeoutError. */
function timeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`The operation timed out after ${timeoutMs} ms`), { name: 'TimeoutError' });
}
