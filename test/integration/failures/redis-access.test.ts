import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestCertificates } from '../../support/test-ca.js';
import { catalogRows } from '../support/catalog.js';
import { freePort, OwnRedis, type OwnRedisOptions } from '../support/own-redis.js';
import { usePipeline } from '../support/pipeline.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { expectOneLine } from './support/redis-watch.js';

/**
 * Issue 18: Redis servers configured the way managed and shared ones often are: a password, TLS, an
 * eviction policy, a replica. Each test starts redis-servers of its own; every CLI runs as a child
 * process, so that anything printed to its console (BullMQ's warnings) would be seen.
 */
describe('a Redis that asks for a password, speaks TLS, evicts keys or is a replica', () => {
  const pipeline = usePipeline();
  const servers: OwnRedis[] = [];
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-redis-access-'));
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  async function ownRedis(options: OwnRedisOptions = {}): Promise<OwnRedis> {
    const server = new OwnRedis(await freePort(), dir, { persistence: false, ...options });
    servers.push(server);
    await server.start();
    return server;
  }

  // Warnings show: the one line must be all there is.
  const env = (redisUrl: string, extra: NodeJS.ProcessEnv = {}) => ({
    REDIS_URL: redisUrl,
    LOG_LEVEL: 'warn',
    ...extra,
  });

  it('names a password wanted, and a password rejected without printing it; the right one works', {
    timeout: 60_000,
  }, async () => {
    const password = 'pw-Zq81-secret';
    const redis = await ownRedis({ args: ['--requirepass', password], password });
    const rows = catalogRows(20);
    const source = await pipeline.csv('catalog.csv', rows);

    const without = pipeline.spawn(['run', source], env(redis.url));
    expect((await without.exited).code).toBe(2);
    expectOneLine(
      without.stderr(),
      /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ wants a password: put it in REDIS_URL as redis:\/\/:PASSWORD@127\.0\.0\.1:\d+$/,
    );

    const wrong = pipeline.spawn(['status'], env(`redis://:not-${password}@127.0.0.1:${redis.port}`));
    expect((await wrong.exited).code).toBe(2);
    expectOneLine(
      wrong.stderr(),
      /^catalog-sync: Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ rejected the password \(WRONGPASS [^)]*\): check the one in REDIS_URL$/,
    );
    expect(wrong.stderr()).not.toContain(password);

    const right = pipeline.spawn(['run', source], env(redis.urlWithPassword));
    expect(await right.exited, right.stderr()).toEqual({ code: 0, signal: null });
    expect(right.stderr()).toBe('');
    expect(right.stdout()).not.toContain(password);
    expectExactCatalog(pipeline.products(), rows);
    expect(pipeline.sandbox.stats().total).toBe(rows.length + 1);
  });

  const hasOpenssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;

  it.skipIf(!hasOpenssl)(
    'connects with rediss:// (TLS); a certificate not trusted is one line',
    {
      timeout: 60_000,
    },
    async (context) => {
      // A CA of the test's own and a certificate for 127.0.0.1 signed by it.
      const tls = join(dir, 'tls');
      await mkdir(tls);
      const certificates = makeTestCertificates(tls);
      const ca = await readFile(certificates.ca);
      const port = await freePort();
      const redis = new OwnRedis(port, dir, {
        persistence: false,
        // The TLS port only (a later --port wins).
        args: [
          '--port',
          '0',
          '--tls-port',
          String(port),
          '--tls-cert-file',
          certificates.cert,
          '--tls-key-file',
          certificates.key,
          '--tls-ca-cert-file',
          certificates.ca,
          '--tls-auth-clients',
          'no',
        ],
        answers: async () => {
          const client = new Redis(`rediss://127.0.0.1:${port}`, {
            tls: { ca },
            lazyConnect: true,
            retryStrategy: () => null,
          });
          client.on('error', () => {});
          try {
            await client.connect();
            return (await client.ping()) === 'PONG';
          } catch {
            return false;
          } finally {
            client.disconnect();
          }
        },
      });
      servers.push(redis);
      await redis.start();
      if (!redis.running) context.skip('this redis-server was built without TLS');
      const rows = catalogRows(20);
      const source = await pipeline.csv('catalog.csv', rows);
      const url = `rediss://127.0.0.1:${port}`;

      const untrusted = pipeline.spawn(['run', source], env(url));
      expect((await untrusted.exited).code).toBe(2);
      expectOneLine(
        untrusted.stderr(),
        /^catalog-sync: Redis at rediss:\/\/127\.0\.0\.1:\d+: its TLS certificate is not trusted here \([^)]*certificate[^)]*\); give its CA with NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem, or check the host name in REDIS_URL$/,
      );

      const trusted = pipeline.spawn(['run', source], env(url, { NODE_EXTRA_CA_CERTS: certificates.ca }));
      expect(await trusted.exited, trusted.stderr()).toEqual({ code: 0, signal: null });
      expectExactCatalog(pipeline.products(), rows);
    },
  );

  it('refuses an evicting Redis in one line before any request, unless eviction is allowed; BullMQ says nothing', {
    timeout: 90_000,
  }, async () => {
    const redis = await ownRedis({ args: ['--maxmemory', '64mb', '--maxmemory-policy', 'allkeys-lru'] });
    const rows = catalogRows(30);
    const source = await pipeline.csv('catalog.csv', rows);
    const refused =
      /^catalog-sync: Redis at redis:\/\/127\.0\.0\.1:\d+ evicts keys when it is full \(maxmemory-policy allkeys-lru\): an evicted key is a lost row or a duplicate product\. Set maxmemory-policy noeviction, or pass --allow-eviction$/;

    for (const args of [['run', source], ['import', source], ['worker']]) {
      const child = pipeline.spawn(args, env(redis.url));
      expect((await child.exited).code, args[0]).toBe(2);
      expectOneLine(child.stderr(), refused);
    }
    expect(pipeline.sandbox.stats().total).toBe(0);

    const allowed = pipeline.spawn(['run', source, '--allow-eviction'], env(redis.url));
    expect(await allowed.exited, allowed.stderr()).toEqual({ code: 0, signal: null });
    expect(allowed.stderr()).toBe('');
    expectExactCatalog(pipeline.products(), rows);

    // The same with a job file (the flag stays the command line's), and with a worker doing the
    // work: BullMQ's warning never shows.
    const more = catalogRows(10, 1000);
    await mkdir(join(pipeline.dir, 'jobs'));
    const job = join(pipeline.dir, 'jobs', 'evicting.yml');
    await writeFile(job, `source: ${await pipeline.csv('more.csv', more)}\n`);
    const queued = pipeline.spawn(['import', '--job', job, '--allow-eviction'], env(redis.url));
    expect(await queued.exited, queued.stderr()).toEqual({ code: 0, signal: null });
    const worker = pipeline.spawn(['worker', '--allow-eviction'], env(redis.url, { LOG_LEVEL: 'info' }));
    const deadline = Date.now() + 30_000;
    while (pipeline.products().length < rows.length + more.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expectExactCatalog(pipeline.products(), [...rows, ...more]);
    for (const child of [queued, worker]) {
      expect(child.stderr()).not.toMatch(/IMPORTANT|Eviction policy/);
      expect(child.stdout()).not.toMatch(/IMPORTANT|Eviction policy/);
    }
    expect(worker.stderr()).not.toMatch(/"level":[4-6]\d/);
  });

  it('names a replica in one line, before any request', { timeout: 60_000 }, async () => {
    const primary = await ownRedis();
    const replica = await ownRedis({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
    const source = await pipeline.csv('catalog.csv', catalogRows(5));

    const run = pipeline.spawn(['run', source], env(replica.url));

    expect((await run.exited).code).toBe(2);
    expectOneLine(
      run.stderr(),
      new RegExp(
        `^catalog-sync: Redis at redis://127\\.0\\.0\\.1:${replica.port} is a read-only replica \\(of 127\\.0\\.0\\.1:${primary.port}\\): point REDIS_URL at its primary$`,
      ),
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
