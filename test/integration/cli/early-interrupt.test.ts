import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { usePipeline } from '../support/pipeline.js';

/**
 * An interrupt while the command listens for none of its own (`ping` waiting on an API that never
 * answers; the same holds while the CLI's modules load): Node's default ended the process with no
 * line, so cron's mail said nothing. The launcher's early handler (bin/early-signals.js) says it.
 */
describe('an interrupt no command listens for', () => {
  const pipeline = usePipeline();
  let silent: Server | undefined;

  afterEach(() => {
    silent?.closeAllConnections();
    silent?.close();
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: one line, exit %i', { timeout: 30_000 }, async (signal, code) => {
    const server = createServer(() => {});
    silent = server;
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const connected = once(server, 'connection');
    const ping = pipeline.spawn(['ping'], {
      SELLER_API_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    });
    // The CLI is past its start and waits on the API's answer.
    await connected;

    ping.process.kill(signal);

    expect(await ping.exited).toEqual({ code, signal: null });
    expect(ping.stderr()).toBe(`catalog-sync: interrupted (${signal})\n`);
  });
});
