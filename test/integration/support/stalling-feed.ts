import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { catalogRows } from './catalog.js';

/**
 * A CSV feed on loopback that sends 3,000 rows (more than the 64 KiB a run sniffs) and then stalls,
 * never ending its answer: a `run` of it is caught mid-read. Closed after each test.
 */
export function useStallingFeed(): () => Promise<string> {
  let feed: Server | undefined;
  afterEach(async () => {
    feed?.closeAllConnections();
    await new Promise((resolve) => (feed ? feed.close(resolve) : resolve(undefined)));
    feed = undefined;
  });
  return async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/csv' });
      response.write('sku,name,price\n');
      for (const row of catalogRows(3000))
        response.write(`${row.sku},"${row.name} with a longer name",${row.price}\n`);
    });
    feed = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`;
  };
}
