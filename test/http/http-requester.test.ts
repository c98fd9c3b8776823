import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promisify } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpRequester, joinedHeaders } from '../../src/seller-api/http-requester.js';
import { assertBuilt } from '../integration/support/cli.js';

// The node:http requester against a real server on port 0: what fetch did for the client
// (decoding, bounds, redirects as answers) and what it adds (sockets kept and reused).

let server: Server | undefined;
const sockets = new Set<Socket>();
const requester = createHttpRequester({ maxSockets: 4 });

afterEach(async () => {
  const closing = server;
  server = undefined;
  sockets.clear();
  requester.close();
  if (!closing) return;
  closing.closeAllConnections();
  await new Promise<void>((resolve) => closing.close(() => resolve()));
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<URL> {
  server = createServer(handler);
  server.on('connection', (socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/ping`);
}

const get = (url: URL, timeoutMs = 2_000) =>
  requester({ method: 'GET', url, headers: {}, body: undefined, timeoutMs });

describe('the node:http requester', () => {
  it('keeps the connection open and sends the next requests on it', async () => {
    const url = await serve((_request, response) => response.end('{}'));
    for (let i = 0; i < 3; i++) expect(await (await get(url)).readBounded(1024)).toBe('{}');
    expect(sockets.size).toBe(1);
  });

  it.each([
    ['gzip', gzipSync],
    ['br', brotliCompressSync],
  ])('asks for compressed answers and decodes %s', async (coding, compress) => {
    let asked: string | undefined;
    const url = await serve((request, response) => {
      asked = request.headers['accept-encoding'];
      response.writeHead(200, { 'Content-Encoding': coding }).end(compress(Buffer.from('{"data":[]}')));
    });
    expect(await (await get(url)).readBounded(1024)).toBe('{"data":[]}');
    expect(asked).toContain(coding);
  });

  it('bounds the decoded size: a small gzip of a long answer is cut off, and the next request still works', async () => {
    const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20));
    const url = await serve((_request, response) => {
      response.writeHead(200, { 'Content-Encoding': 'gzip' }).end(bomb);
    });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await (await get(url)).readBounded(1024 * 1024)).toBeNull();
    expect(await (await get(url)).readBounded(16 * 1024 * 1024)).toHaveLength(8 * 1024 * 1024);
  });

  it('answers a redirect with the 3xx itself and goes nowhere else', async () => {
    let requests = 0;
    const url = await serve((_request, response) => {
      requests += 1;
      response.writeHead(302, { Location: '/elsewhere' }).end();
    });
    const answer = await get(url);
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe('/elsewhere');
    expect(await answer.readBounded(1024)).toBe('');
    expect(requests).toBe(1);
  });

  it('gives lower-cased headers, repeated ones joined as fetch did, and drops a BOM', async () => {
    const url = await serve((_request, response) => {
      response.setHeader('X-Note', ['a', 'b']);
      response.end('\uFEFF{}');
    });
    const answer = await get(url);
    expect(answer.headers['x-note']).toBe('a, b');
    expect(await answer.readBounded(1024)).toBe('{}');
  });

  it('decodes what repeated Content-Encoding headers say, joined in their order', async () => {
    const body = gzipSync(brotliCompressSync(Buffer.from('{"id":7}')));
    const url = await serve((_request, response) => {
      response.setHeader('Content-Encoding', ['br', 'gzip']);
      response.end(body);
    });
    const answer = await get(url);
    expect(answer.headers['content-encoding']).toBe('br, gzip');
    expect(await answer.readBounded(1024)).toBe('{"id":7}');
  });

  it('keeps headers named __proto__ or constructor as headers, the object still a plain one', () => {
    const headers = joinedHeaders(['__proto__', 'a', 'Constructor', 'b', '__PROTO__', 'c', 'X-One', '1']);
    expect(Object.keys(headers)).toEqual(['__proto__', 'constructor', 'x-one']);
    expect(Object.getOwnPropertyDescriptor(headers, '__proto__')?.value).toBe('a, c');
    expect(headers.constructor).toBe('b');
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
    expect(joinedHeaders(['Set-Cookie', 'a=1', 'set-cookie', 'b=2'])).toEqual({ 'set-cookie': 'a=1, b=2' });
  });

  it('fails with a TimeoutError when the body stalls, and closes that socket', async () => {
    const url = await serve((_request, response) => {
      response.writeHead(200).write('[');
    });
    const answer = await get(url, 150);
    await expect(answer.readBounded(1024)).rejects.toMatchObject({ name: 'TimeoutError' });
    // The server sees its connection closed (the test times out otherwise).
    await Promise.all([...sockets].map((socket) => socket.closed || once(socket, 'close')));
  });

  it('lets the process exit with the socket still pooled: an idle socket holds no ref', async () => {
    assertBuilt();
    const url = await serve((_request, response) => response.end('{}'));
    (server as Server).keepAliveTimeout = 60_000;
    const module = new URL('../../dist/src/seller-api/http-requester.js', import.meta.url).href;
    // The child lists what keeps its event loop alive once the answer is read (no TCP socket may).
    const script = `
      const { createHttpRequester } = await import(${JSON.stringify(module)});
      const request = { method: 'GET', url: new URL(${JSON.stringify(url.href)}), headers: {}, timeoutMs: 5000 };
      const text = await (await createHttpRequester()(request)).readBounded(100);
      await new Promise((resolve) => setImmediate(resolve));
      console.log(JSON.stringify({ text, alive: process.getActiveResourcesInfo() }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 10_000,
    });
    const { text, alive } = JSON.parse(stdout) as { text: string; alive: string[] };
    expect(text).toBe('{}');
    expect(alive).not.toContain('TCPSocketWrap');
  }, 15_000);
});
