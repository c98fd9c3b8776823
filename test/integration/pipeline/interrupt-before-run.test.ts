import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

const LINE = 'catalog-sync: interrupted (SIGINT) before the run was created: no row was queued or sent\n';

/**
 * A feed on loopback that sends its header line and then nothing, never ending its answer: the
 * command that reads it waits in its first moments (the source's first 64 KiB are sniffed before
 * the run is created). `asked` resolves once the command has asked for it.
 */
function useSilentFeed(): () => Promise<{ url: string; asked: Promise<void> }> {
  let feed: Server | undefined;
  afterEach(async () => {
    feed?.closeAllConnections();
    await new Promise((resolve) => (feed ? feed.close(resolve) : resolve(undefined)));
    feed = undefined;
  });
  return async () => {
    let asked: () => void = () => {};
    const askedFor = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/csv' });
      response.write('sku,name,price\n');
      asked();
    });
    feed = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`, asked: askedFor };
  };
}

/** Every key under `prefix`. */
function keysUnder(prefix: string): Promise<string[]> {
  return withRedis(async (redis) => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      found.push(...keys);
    } while (cursor !== '0');
    return found.sort();
  });
}

/** `promise`, or a rejection after `ms`: a call that never hears its interrupt fails, not hangs. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not ended ${ms} ms after the interrupt`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('interrupted before its run is created (opening a source that has sent nothing yet)', () => {
  const pipeline = usePipeline();
  const silentFeed = useSilentFeed();

  it.each(['run', 'import'])(
    '`%s` in this process: one line, exit 130, nothing in Redis',
    async (command) => {
      const feed = await silentFeed();
      const call = startCli([command, feed.url], pipeline.env);
      await feed.asked;

      call.interrupt();
      const result = await within(call.result, 10_000, command);

      expect(result).toEqual({ code: 130, stdout: '', stderr: LINE });
      expect(await keysUnder(pipeline.prefix)).toEqual([]);
      expect(pipeline.sandbox.stats().total).toBe(0);
    },
  );

  it.each(['run', 'import'])(
    '`%s` as a process killed with SIGINT: the same line, exit 130',
    {
      timeout: 30_000,
    },
    async (command) => {
      const feed = await silentFeed();
      const child = pipeline.spawn([command, feed.url]);
      await feed.asked;

      child.process.kill('SIGINT');

      expect(await within(child.exited, 10_000, command)).toEqual({ code: 130, signal: null });
      expect(child.stdout()).toBe('');
      expect(child.stderr()).toBe(LINE);
      expect(await keysUnder(pipeline.prefix)).toEqual([]);
      expect(pipeline.sandbox.stats().total).toBe(0);
    },
  );
});
