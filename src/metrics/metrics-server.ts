import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import { loopbackHosts, namesLoopback } from '../loopback-host.js';
import { closeServer } from '../net/http-server.js';
import { UsageError } from '../usage-error.js';
import type { WorkerMetrics } from './worker-metrics.js';

export interface MetricsServer {
  /** `http://127.0.0.1:PORT/metrics` */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` in Prometheus text on 127.0.0.1 only: the metrics are for this machine (a
 * Prometheus agent beside the worker), not for the network; a request naming another host (a DNS
 * name rebound to 127.0.0.1) is answered 421, as the dashboard answers it. Port 0 takes a free one.
 */
export async function startMetricsServer(
  metrics: WorkerMetrics,
  port: number,
  logger: Logger,
): Promise<MetricsServer> {
  let allowedHosts: ReadonlySet<string> = new Set<string>();
  const server = createServer((req, res) => {
    if (!namesLoopback(req, allowedHosts)) {
      res
        .writeHead(421, { 'Content-Type': 'text/plain' })
        .end('these metrics answer to their loopback address only\n');
      return;
    }
    if (req.method !== 'GET' || new URL(req.url ?? '/', 'http://metrics.invalid').pathname !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found: GET /metrics\n');
      return;
    }
    // Redis out of reach is no failure here (worker-metrics.ts): what fails is prom-client's own.
    metrics.text().then(
      (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        logger.warn({ err: String(error) }, 'metrics could not be read');
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('metrics could not be read\n');
      },
    );
  });
  server.listen(port, '127.0.0.1');
  try {
    await Promise.race([
      once(server, 'listening'),
      once(server, 'error').then(([error]) => Promise.reject(error)),
    ]);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`--metrics-port: ${port} is already in use on 127.0.0.1`);
    if (code === 'EACCES') throw new UsageError(`--metrics-port: ${port} may not be used by this user`);
    throw error;
  }
  const bound = (server.address() as AddressInfo).port;
  allowedHosts = loopbackHosts(bound);
  return {
    url: `http://127.0.0.1:${bound}/metrics`,
    close: () => closeServer(server),
  };
}

/** `--metrics-port N`: a port number, 0 for any free one. */
export function parseMetricsPort(text: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 0 && value <= 65_535)) {
    throw new UsageError(`--metrics-port takes a port number from 0 to 65535, not "${text}"`);
  }
  return value;
}
