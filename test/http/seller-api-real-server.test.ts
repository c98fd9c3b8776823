import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponseError, NetworkError, TimeoutError } from '../../src/seller-api/index.js';
import { API_KEY, collect, fastRetry, probeClient, rejection } from './seller-api-helpers.js';

// A real server on port 0 for what a mock cannot fake: a silent server, a socket torn down
// mid-answer, bytes that are not JSON (as Octokit's tests do). Nock is not loaded here.

let server: Server | undefined;

afterEach(async () => {
  const closing = server;
  server = undefined;
  if (!closing) return;
  closing.closeAllConnections();
  await new Promise<void>((resolve) => closing.close(() => resolve()));
});

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}/api/v1`;
}

describe('against a real HTTP server', () => {
  describe('when an answer is longer than maxAnswerBytes', () => {
    it('refuses it once, unread past the cap, and does not try the read again', async () => {
      let sent = 0;
      let answers = 0;
      const baseUrl = await serve((_request, response) => {
        answers++;
        response.writeHead(200, { 'Content-Type': 'application/json' });
        // An endless body: the client must stop reading, not hold it all.
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (sent < 64 * 1024 * 1024 && response.write(chunk)) sent += chunk.length;
          if (sent < 64 * 1024 * 1024) response.once('drain', pump);
          else response.end();
        };
        pump();
      });
      const { client } = probeClient({ baseUrl, maxAnswerBytes: 1024 * 1024, retry: fastRetry });

      const error = await rejection(collect(client.listProducts()));

      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error.message).toContain('the answer is over 1 MiB, more than any real page; not read');
      expect(answers).toBe(1);
      expect(sent).toBeLessThan(64 * 1024 * 1024);
    });
  });

  describe('when the server never answers', () => {
    it('fails a GET with a TimeoutError after timeoutMs', async () => {
      const baseUrl = await serve(() => {});
      const { client, requests } = probeClient({ baseUrl, timeoutMs: 100 });
      const error = await rejection(client.ping());
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toBe('GET /ping: no complete answer within 100 ms');
      expect(requests).toEqual([expect.objectContaining({ method: 'GET', path: '/ping', status: null })]);
    });

    it('leaves a POST’s outcome unknown (the server may have created the product)', async () => {
      const baseUrl = await serve(() => {});
      const error = await rejection(
        probeClient({ baseUrl, timeoutMs: 100 }).client.createProduct({ name: 'Mug' }),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect((error as TimeoutError).outcomeUnknown).toBe(true);
    });

    it('also times out a body that starts and then stalls', async () => {
      const baseUrl = await serve((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.write('[{"id": 1},');
      });
      const error = await rejection(collect(probeClient({ baseUrl, timeoutMs: 150 }).client.listProducts()));
      expect(error).toBeInstanceOf(TimeoutError);
    });
  });

  describe('when the connection is reset', () => {
    it('fails a list read mid-answer with a NetworkError', async () => {
      const baseUrl = await serve((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
        response.write('[{"id": 1}, {"id"', () => response.socket?.destroy());
      });
      const error = await rejection(collect(probeClient({ baseUrl }).client.listProducts()));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).not.toBeInstanceOf(TimeoutError);
      expect((error as NetworkError).code).not.toBeNull();
      expect(error.message).toMatch(/^GET \/products: network error: /);
    });

    it('leaves a POST’s outcome unknown when the socket drops before the answer', async () => {
      const baseUrl = await serve((request) => {
        request.resume();
        request.on('end', () => request.socket.destroy());
      });
      const error = await rejection(probeClient({ baseUrl }).client.createProduct({ name: 'Mug' }));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).outcomeUnknown).toBe(true);
    });

    it('retries a GET whose connection dropped, under a retry policy', async () => {
      let calls = 0;
      const baseUrl = await serve((request, response) => {
        calls += 1;
        if (calls === 1) request.socket.destroy();
        else response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data":[{"id":3}]}');
      });
      const { client, sleeps } = probeClient({ baseUrl, retry: fastRetry });
      expect(await collect(client.listProducts())).toEqual([[{ id: '3', fields: { id: 3 } }]]);
      expect(sleeps).toHaveLength(1);
    });
  });

  describe('when nothing listens', () => {
    it('fails with ECONNREFUSED and knows a refused POST was never applied', async () => {
      const baseUrl = await serve(() => {});
      const closed = server as Server;
      server = undefined;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const error = await rejection(probeClient({ baseUrl }).client.createProduct({ name: 'Mug' }));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).code).toBe('ECONNREFUSED');
      expect((error as NetworkError).outcomeUnknown).toBe(false);
    });
  });

  describe('when the body is not what we need', () => {
    it('fails a list with an InvalidResponseError on broken JSON', async () => {
      const baseUrl = await serve((_request, response) => {
        response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data": [ {"id": 1} ');
      });
      const error = await rejection(collect(probeClient({ baseUrl }).client.listProducts()));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect((error as InvalidResponseError).body).toBe('{"data": [ {"id": 1} ');
    });

    it('reads an empty 200 answer to a create as "created, id unknown"', async () => {
      let received = '';
      const baseUrl = await serve((request, response) => {
        request.setEncoding('utf8');
        request.on('data', (chunk: string) => {
          received += chunk;
        });
        request.on('end', () => response.writeHead(200).end());
      });
      const result = await probeClient({ baseUrl }).client.createProduct({ name: 'Mug', price: 12.5 });
      expect(result).toEqual({ id: null, product: null });
      expect(JSON.parse(received)).toEqual({ name: 'Mug', price: 12.5 });
    });

    it('reads a create answered with broken JSON as "created, id unknown", not as a failure', async () => {
      const baseUrl = await serve((request, response) => {
        request.resume();
        request.on('end', () =>
          response.writeHead(201, { 'Content-Type': 'application/json' }).end('{"id": 4'),
        );
      });
      expect(await probeClient({ baseUrl }).client.createProduct({ name: 'Mug' })).toEqual({
        id: null,
        product: null,
      });
    });
  });

  it('sends the key only in the Authorization header', async () => {
    let seen: IncomingMessage | undefined;
    const baseUrl = await serve((request, response) => {
      seen = request;
      response.writeHead(200).end('{}');
    });
    await probeClient({ baseUrl }).client.ping();
    expect(seen?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(seen?.url).toBe('/api/v1/ping');
  });
});
