import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, originOf } from '../../net/http-server.js';

/** What a store double's handler answers. */
export interface DoubleAnswer {
  status: number;
  /** No answer at all: the connection is closed once the request is read (a host that dropped it). */
  reset?: boolean;
  headers?: Record<string, string>;
  body: string;
}

export interface DoubleRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface RunningDouble {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** The most a request to a double may carry: a GraphQL query is a few KiB. */
const MAX_REQUEST_BYTES = 1024 * 1024;

/**
 * Serves a store double on loopback (the platforms' doubles: src/sources/stores/<platform>/double.ts).
 * `port` 0 picks a free one.
 */
export async function serveDouble(
  handle: (request: DoubleRequest, origin: string) => DoubleAnswer | Promise<DoubleAnswer>,
  options: { port?: number | undefined; host?: string | undefined } = {},
): Promise<RunningDouble> {
  let origin = '';
  const server = createServer((req, res) => {
    answer(req, res).catch(() => {
      if (res.headersSent) res.destroy();
      else {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"errors":"internal error of the double"}');
      }
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_REQUEST_BYTES) {
        res.writeHead(413).end();
        return;
      }
      chunks.push(chunk as Buffer);
    }
    const request: DoubleRequest = {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', origin),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    const result = await handle(request, origin);
    if (result.reset) {
      req.socket.destroy();
      return;
    }
    res.writeHead(result.status, { 'content-type': 'application/json', ...result.headers });
    res.end(result.body);
  }
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  origin = originOf(server);
  return {
    origin,
    port: (server.address() as AddressInfo).port,
    close: () => closeServer(server),
  };
}
