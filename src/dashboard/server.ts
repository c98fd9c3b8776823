import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_DASHBOARD_PORT } from '../defaults.js';
import { type Logger, silentLogger } from '../logger.js';
import { loopbackHosts, namesLoopback } from '../loopback-host.js';
import { closeServer, originOf } from '../net/http-server.js';
import { RunCountRefused } from '../runs/run-counts.js';
import type { DashboardSource } from './data.js';
import { PAGE_CSP, PAGE_HTML } from './page.js';
import { type Route, routeRequest } from './routes.js';

export interface DashboardServerOptions {
  source: DashboardSource;
  /** A loopback address; the caller checks it (the dashboard has no authentication). */
  host?: string;
  /** 0 takes any free port. */
  port?: number;
  logger?: Logger;
  /** How long a read may take before the answer is a 503 (Redis waits while it reconnects). */
  answerWithinMs?: number;
}

export interface DashboardServer {
  /** `http://127.0.0.1:4020/` */
  url: string;
  close(): Promise<void>;
}

class Unanswered extends Error {}

/** Serves the page and its read-only JSON API; resolves once it listens. */
export async function startDashboard(options: DashboardServerOptions): Promise<DashboardServer> {
  const logger = options.logger ?? silentLogger;
  const answerWithinMs = options.answerWithinMs ?? 5000;
  let allowedHosts: ReadonlySet<string> = new Set<string>();

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      // A run whose record Redis holds forged (a row count past MAX_RUN_ROWS): refused, as `report` does.
      if (error instanceof RunCountRefused && !res.headersSent) {
        sendJson(res, 422, { error: error.message });
        return;
      }
      const unanswered = error instanceof Unanswered;
      if (!unanswered) logger.warn({ err: String(error) }, 'dashboard request failed');
      if (res.headersSent) res.destroy();
      else
        sendJson(res, 503, {
          error: unanswered ? 'Redis is not answering' : 'the dashboard could not read Redis',
        });
    });
  });

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // A page on another site could otherwise read this data through a DNS name rebound to 127.0.0.1.
    if (!namesLoopback(req, allowedHosts)) {
      sendJson(res, 421, { error: 'this dashboard answers to its loopback address only' });
      return;
    }
    const route = routeRequest(req.method ?? 'GET', new URL(req.url ?? '/', 'http://dashboard.invalid'));
    await answer(route, res);
  }

  const within = <T>(read: Promise<T>) => withinDeadline(read, answerWithinMs);

  async function answer(route: Route, res: ServerResponse): Promise<void> {
    switch (route.kind) {
      case 'page':
        res.writeHead(200, {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': PAGE_CSP,
          ...COMMON_HEADERS,
        });
        res.end(PAGE_HTML);
        return;
      case 'sellers':
        sendJson(res, 200, { sellers: await within(options.source.sellers()) });
        return;
      case 'runs':
        sendJson(res, 200, { runs: await within(options.source.runs(route.limit)) });
        return;
      case 'run': {
        const run = await within(options.source.run(route.id));
        if (run) sendJson(res, 200, run);
        else sendJson(res, 404, { error: noRun(route.id) });
        return;
      }
      case 'report':
        if (!(await within(options.source.hasRun(route.id)))) {
          sendJson(res, 404, { error: noRun(route.id) });
          return;
        }
        res.writeHead(200, {
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': `attachment; filename="catalog-sync-${route.id}.csv"`,
          ...COMMON_HEADERS,
        });
        await options.source.writeReport(route.id, res);
        res.end();
        return;
      case 'error':
        sendJson(res, route.status, { error: route.message }, route.status === 405 ? { Allow: 'GET' } : {});
        return;
    }
  }

  server.listen(options.port ?? DEFAULT_DASHBOARD_PORT, options.host ?? '127.0.0.1');
  // Rejects with the listen error (EADDRINUSE…), which `once` turns into a rejection.
  await once(server, 'listening');
  allowedHosts = loopbackHosts((server.address() as AddressInfo).port);

  return {
    url: `${originOf(server)}/`,
    close: () => closeServer(server),
  };
}

const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...COMMON_HEADERS, ...headers });
  res.end(JSON.stringify(body));
}

function noRun(id: string): string {
  return `no run ${id} in Redis (runs are kept 7 days)`;
}

function withinDeadline<T>(read: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Unanswered()), ms);
  });
  read.catch(() => undefined);
  return Promise.race([read, deadline]).finally(() => clearTimeout(timer));
}
