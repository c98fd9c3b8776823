import { createServer as createHttpServer, type Server } from 'node:http';
import {
  type AddressInfo,
  createServer as createNetServer,
  type Server as NetServer,
  type Socket,
} from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createHttpRequester,
  NetworkError,
  type RequestEvent,
  SellerApiClient,
  ServerError,
  TimeoutError,
} from '../../src/seller-api/index.js';
import { freePort } from '../integration/support/own-redis.js';

// Whether a request that failed provably never reached the API (its connection was never made):
// such a request is not one of the seller's day (sync counts it nowhere), any other is. Real
// sockets on 127.0.0.1 through the node:http requester the tool uses; nothing leaves loopback.

const KEY = 'sk_test_connect_failures';
const requester = createHttpRequester();
const servers: Array<Server | NetServer> = [];
const sockets = new Set<Socket>();

afterEach(async () => {
  requester.close();
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listening(server: Server | NetServer): Promise<number> {
  servers.push(server);
  server.on('connection', (socket: Socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A client of `base`, and the events it reports (what the tool counts requests by). */
function clientOf(base: string, timeoutMs = 2_000) {
  const events: RequestEvent[] = [];
  const client = new SellerApiClient({
    baseUrl: base,
    apiKey: KEY,
    request: requester,
    timeoutMs,
    onRequest: (event) => events.push(event),
  });
  return { client, events };
}

async function failureOf(work: Promise<unknown>): Promise<NetworkError> {
  const error = await work.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(NetworkError);
  return error as NetworkError;
}

describe('a request that never reached the API', () => {
  it('is not sent when the connection is refused (nothing listens on the port)', async () => {
    const { client, events } = clientOf(`http://127.0.0.1:${await freePort()}/api/v1`);

    const error = await failureOf(client.updateProduct('7', { name: 'Lamp' }));

    expect(error.code).toBe('ECONNREFUSED');
    expect(error.notSent).toBe(true);
    // Not applied for sure: the write's outcome is known.
    expect(error.outcomeUnknown).toBe(false);
    expect(events).toMatchObject([{ method: 'PUT', status: null, notSent: true }]);
  });

  it('is not sent when the TLS handshake fails before the request (https:// to a port that hangs up)', async () => {
    const port = await listening(createNetServer((socket) => socket.destroy()));
    const { client, events } = clientOf(`https://127.0.0.1:${port}/api/v1`);

    const error = await failureOf(client.createProduct({ name: 'Lamp', price: 1 }));

    expect(error.tlsHandshake).toBe(true);
    expect(error.notSent).toBe(true);
    expect(events).toMatchObject([{ status: null, notSent: true }]);
  });
});

describe('a request that may have reached the API', () => {
  it('counts when the connection is reset after the request was written', async () => {
    let received = 0;
    const port = await listening(
      createNetServer((socket) => {
        socket.once('data', () => {
          received++;
          socket.resetAndDestroy();
        });
      }),
    );
    const { client, events } = clientOf(`http://127.0.0.1:${port}/api/v1`);

    const error = await failureOf(client.updateProduct('7', { name: 'Lamp' }));

    expect(received).toBe(1);
    expect(error.notSent).toBe(false);
    expect(error.outcomeUnknown).toBe(true);
    expect(events).toMatchObject([{ status: null, notSent: false }]);
  });

  it('counts when no answer comes in time', async () => {
    const port = await listening(createHttpServer(() => undefined));
    const { client, events } = clientOf(`http://127.0.0.1:${port}/api/v1`, 150);

    const error = await failureOf(client.getProduct('7'));

    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.notSent).toBe(false);
    expect(events).toMatchObject([{ status: null, notSent: false }]);
  });

  it('counts any answer, a 500 too', async () => {
    const port = await listening(createHttpServer((_request, response) => response.writeHead(500).end('{}')));
    const { client, events } = clientOf(`http://127.0.0.1:${port}/api/v1`);

    await expect(client.updateProduct('7', { name: 'Lamp' })).rejects.toBeInstanceOf(ServerError);
    expect(events).toMatchObject([{ status: 500, notSent: false }]);
  });

  it('counts a failure on a kept-alive connection, made by an earlier request', async () => {
    let served = 0;
    const port = await listening(
      createHttpServer((request, response) => {
        served++;
        if (served === 1) response.end('{"id":"7","name":"Lamp"}');
        else request.socket.resetAndDestroy();
      }),
    );
    const { client, events } = clientOf(`http://127.0.0.1:${port}/api/v1`);
    await client.getProduct('7');

    const error = await failureOf(client.updateProduct('7', { name: 'Lamp' }));

    expect(served).toBe(2);
    expect(error.notSent).toBe(false);
    expect(events.map((event) => event.notSent)).toEqual([false, false]);
  });
});
