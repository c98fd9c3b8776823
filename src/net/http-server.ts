import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `http://127.0.0.1:PORT` (or `http://[::1]:PORT`): where a listening server of ours answers. */
export function originOf(server: Server): string {
  const { address, family, port } = server.address() as AddressInfo;
  return `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
}

/**
 * Stops a server of ours (sandbox, doubles, dashboard, metrics) at once: idle keep-alive
 * connections would otherwise hold `close` open for their time-out. Safe to call twice.
 */
export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  const closed = once(server, 'close');
  server.close();
  server.closeAllConnections();
  await closed;
}
