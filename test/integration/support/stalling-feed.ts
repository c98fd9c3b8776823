import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { catalogRows } from './catalog.js';

/** How a stalling feed answers (useStallingFeed); by default every answer stalls after 3,000 rows. */
export interface StallingFeedOptions {
  /** Rows sent before the answer stalls. */
  rows?: number;
  /** How many answers stall; the later ones send `wholeRows` rows and end (the feed "recovered"). */
  stalls?: number;
  /** Rows of an answer that ends: the same first rows (the same source), then more. */
  wholeRows?: number;
  /** A stalled answer goes on once this resolves: the rest of `wholeRows`, then its end. */
  resumeWhen?: Promise<void>;
  /** Characters of a `description` column on every row: fewer rows fill the 64 KiB a run sniffs. */
  padding?: number;
}

/**
 * A CSV feed on loopback that sends 3,000 rows (more than the 64 KiB a run sniffs) and then stalls,
 * never ending its answer: a `run` of it is caught mid-read. Closed after each test.
 */
export function useStallingFeed(): (options?: StallingFeedOptions) => Promise<string> {
  let feed: Server | undefined;
  afterEach(async () => {
    feed?.closeAllConnections();
    await new Promise((resolve) => (feed ? feed.close(resolve) : resolve(undefined)));
    feed = undefined;
  });
  return async ({
    rows = 3000,
    stalls = Number.POSITIVE_INFINITY,
    wholeRows = rows,
    resumeWhen,
    padding = 0,
  } = {}) => {
    let answered = 0;
    const description = padding > 0 ? `,${'d'.repeat(padding)}` : '';
    const server = createServer((_request, response) => {
      const stall = answered++ < stalls;
      const write = (from: number, to: number) => {
        for (const row of catalogRows(to).slice(from))
          response.write(`${row.sku},"${row.name} with a longer name",${row.price}${description}\n`);
      };
      response.writeHead(200, { 'Content-Type': 'text/csv' });
      response.write(`sku,name,price${description ? ',description' : ''}\n`);
      write(0, stall ? rows : wholeRows);
      if (!stall) response.end();
      else
        resumeWhen?.then(() => {
          write(rows, wholeRows);
          response.end();
        });
    });
    feed = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`;
  };
}
