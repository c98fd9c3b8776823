import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** When a list request (GET …/products) was sent through the proxy and when its answer ended. */
export interface ListSpan {
  first: number;
  last: number;
  pages: number;
}

/**
 * A pass-through HTTP proxy in front of a sandbox process that times the list requests: the sandbox
 * logs no times, and the CLI and a raw fetch of the same pages both go through it, so the proxy's own
 * cost is on both sides of the ratio.
 */
export async function startTimingProxy(target: string) {
  const upstream = new URL(target);
  let span: ListSpan | null = null;
  const server = createServer((incoming, outgoing) => {
    const isList = incoming.method === 'GET' && /\/products(\?|$)/.test(incoming.url ?? '');
    const sent = performance.now();
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        answer.on('end', () => {
          if (!isList) return;
          const ended = performance.now();
          span = span
            ? { first: Math.min(span.first, sent), last: Math.max(span.last, ended), pages: span.pages + 1 }
            : { first: sent, last: ended, pages: 1 };
        });
      },
    );
    forward.on('error', () => outgoing.destroy());
    incoming.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    /** The target's URL with the proxy's host and port. */
    url: `http://127.0.0.1:${port}${upstream.pathname}`.replace(/\/$/, ''),
    /** The list requests seen since the last call, and forgets them. */
    takeSpan(): ListSpan | null {
      const taken = span;
      span = null;
      return taken;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
