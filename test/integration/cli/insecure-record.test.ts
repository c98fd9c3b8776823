import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import type { RunSpec } from '../../../src/runs/run-store.js';
import { sellerRef } from '../../../src/sellers/seller-ref.js';
import { SellerRegistry } from '../../../src/sellers/seller-registry.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

/** A host on no network (`.test` is reserved): only the resolver below knows it, as loopback. */
const HOST = 'api.example.test';

/**
 * Loaded into the worker (NODE_OPTIONS --import): `HOST` resolves to 127.0.0.1, any other name
 * (but localhost and addresses) fails as unknown. No lookup leaves the machine, and a request the
 * worker would make to `HOST` reaches the test's counting listener, never another address.
 */
const RESOLVER = `
import dns from 'node:dns';
import { isIP } from 'node:net';
const original = dns.lookup;
dns.lookup = function lookup(hostname, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options !== null && options.all;
  if (hostname === ${JSON.stringify(HOST)})
    return process.nextTick(() => (all ? done(null, [{ address: '127.0.0.1', family: 4 }]) : done(null, '127.0.0.1', 4)));
  if (hostname === 'localhost' || isIP(hostname)) return original.call(this, hostname, options, callback);
  const error = Object.assign(new Error('getaddrinfo ENOTFOUND ' + hostname), { code: 'ENOTFOUND', hostname });
  process.nextTick(() => done(error));
};
`;

/** A loopback listener that counts the connections made to it and answers none. */
async function countingListener(): Promise<{
  server: Server;
  port: number;
  connections: () => number;
  first: Promise<void>;
}> {
  let count = 0;
  let connected: () => void = () => {};
  const first = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const server = createServer((socket) => {
    count += 1;
    connected();
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port, connections: () => count, first };
}

/**
 * A run record rewritten in Redis to plain http:// on a host the worker's environment allows, with
 * `allowInsecure: true`: the record does not decide that the key may travel unencrypted. A worker
 * not started with --allow-insecure does not serve it (docs/security.md, "workers").
 */
describe('a run recorded with allowInsecure, served by a worker that does not allow it', () => {
  const pipeline = usePipeline();
  let server: Server | undefined;
  afterEach(() => {
    server?.close();
    server = undefined;
  });

  /** A queued run, its record then rewritten to `http://HOST:port`, the port a counting listener's. */
  async function forgedRun(): Promise<{
    runId: string;
    listener: Awaited<ReturnType<typeof countingListener>>;
  }> {
    const listener = await countingListener();
    server = listener.server;
    const imported = await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(5))]);
    expect(imported.code).toBe(0);
    const runId = runIdOf(imported.stdout);
    const forged = `http://${HOST}:${listener.port}/api/v1`;
    await withRedis(async (redis) => {
      const keys = new RedisKeys(pipeline.prefix);
      const key = keys.run(runId);
      const spec = JSON.parse((await redis.hget(key, 'spec')) as string) as RunSpec;
      await redis.hset(key, 'spec', JSON.stringify({ ...spec, baseUrl: forged, allowInsecure: true }));
      // The seller's key known at that URL too, as a `run --allow-insecure` there once linked it.
      await new SellerRegistry(redis, keys).linkKey(sellerRef(forged, MAIN_KEY), spec.sellerRef);
    });
    return { runId, listener };
  }

  /** `worker ...args`, its host allowed by its environment: only the plain http:// is in question. */
  async function worker(args: string[]) {
    const resolver = join(pipeline.dir, 'resolver.mjs');
    await writeFile(resolver, RESOLVER, 'utf8');
    return pipeline.spawn(['worker', ...args], {
      LOG_LEVEL: 'info',
      CATALOG_SYNC_API_HOSTS: HOST,
      NODE_OPTIONS: `--import ${pathToFileURL(resolver).href}`,
    });
  }

  it('is not served: one log line naming the run and --allow-insecure, no connection, rows queued', async () => {
    const { runId, listener } = await forgedRun();
    const child = await worker([]);
    const refused = child.waitForStderr(new RegExp(`^.*run ${runId} is not served by this worker.*$`, 'm'));
    refused.catch(() => undefined);
    // Whichever comes first: the refusal, or (the defect) a connection carrying the key in clear.
    await Promise.race([refused, listener.first]);
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });

    expect(listener.connections()).toBe(0);
    const [line] = await refused;
    expect(JSON.parse(line as string)).toMatchObject({ level: 50, run: runId });
    expect(line).toContain(`host ${HOST}:${listener.port}`);
    expect(line).toContain('worker --allow-insecure');
    expect(line).not.toContain(MAIN_KEY);
    const lines = child
      .stderr()
      .split('\n')
      .filter((text) => text.includes('is not served by this worker'));
    expect(lines).toHaveLength(1);
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    expect(status).toMatchObject({ state: 'queued', settled: 0 });
  });

  it('is served by a worker started with --allow-insecure: its operator said so', async () => {
    const { runId, listener } = await forgedRun();
    const child = await worker(['--allow-insecure']);
    await listener.first;
    child.process.kill('SIGTERM');
    await child.exited;
    expect(child.stderr()).not.toContain(`run ${runId} is not served by this worker`);
  });

  it('approve of such a run without --allow-insecure: one line naming it, exit 2, no connection', async () => {
    const { runId, listener } = await forgedRun();
    const refused = await pipeline.cli(['approve', runId], { CATALOG_SYNC_API_HOSTS: HOST });

    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `catalog-sync: run ${runId} cannot be approved here: its base URL is plain http:// to host ${HOST}:${listener.port}, ` +
        'not loopback, which would send the key unencrypted, and this process was not told it may ' +
        '(its record in Redis does not decide it): give `approve` --allow-insecure, or use https://\n',
    );
    expect(listener.connections()).toBe(0);
  });
});
