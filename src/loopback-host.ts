import type { IncomingMessage } from 'node:http';

/**
 * The Host headers a server on loopback answers to (the dashboard, the metrics endpoint). A page on
 * another site could otherwise read it through a DNS name rebound to 127.0.0.1: such a request
 * names that other host, and is answered 421.
 */
export function loopbackHosts(port: number): ReadonlySet<string> {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  // A browser leaves the default port out of the Host header.
  return new Set([...names.map((name) => `${name}:${port}`), ...(port === 80 ? names : [])]);
}

/** True when the request names one of `hosts` (loopbackHosts) in its Host header. */
export function namesLoopback(req: IncomingMessage, hosts: ReadonlySet<string>): boolean {
  return hosts.has((req.headers.host ?? '').toLowerCase());
}
