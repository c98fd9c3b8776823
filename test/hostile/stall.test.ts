import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openSource } from '../../src/sources/index.js';
import { CliProcesses, runCli } from '../integration/support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { loopbackFetch } from './network-guard.js';
import { loopbackNetwork, loopbackServer, readAll, readSource, tempFolder } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));
// The Seller API client sends through node:http and node:https (not fetch): guarded there too.
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * Issue 10, item 3: a feed that trickles bytes never timed out (an idle time-out is reset by every
 * byte). Now less than 1 KiB in any window of `--source-timeout` ends the read, and waiting on a
 * busy reader is not a stall. Every server here is on 127.0.0.1.
 */
const timers = new Set<NodeJS.Timeout>();
function every(ms: number, tick: () => boolean): void {
  const timer = setInterval(() => {
    if (!tick()) {
      clearInterval(timer);
      timers.delete(timer);
    }
  }, ms);
  timers.add(timer);
}

/** Rejects after `ms`: the old code never ends on a trickle, and the test must. */
function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms)),
  ]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a feed that stalls', () => {
  let server: Awaited<ReturnType<typeof loopbackServer>>;

  beforeAll(async () => {
    server = await loopbackServer({
      '/trickle.csv': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/csv' });
        res.write('sku,name\n');
        let n = 0;
        // 16 bytes every 50 ms: never idle, and far less than 1 KiB in any 600 ms.
        every(
          50,
          () => !res.destroyed && res.write(`T${String(n++).padStart(6, '0')},trickle\n`) !== undefined,
        );
      },
      '/silent.csv': () => {
        // Accepts the request and never answers.
      },
      '/steady.csv': (_req, res) => {
        res.writeHead(200);
        res.write('sku,name\n');
        let n = 0;
        // 2 KiB every 100 ms, for 2 s: slow, but over 1 KiB in every 600 ms.
        every(100, () => {
          if (res.destroyed) return false;
          if (n === 20) {
            res.end();
            return false;
          }
          res.write(`S${n++},${'s'.repeat(2040)}\n`);
          return true;
        });
      },
      '/big.csv': async (_req, res) => {
        res.writeHead(200);
        res.write('sku,name\n');
        // 1 MB as fast as the reader takes it: the server waits whenever the socket is full.
        for (let n = 0; n < 20_000 && !res.destroyed; n++) {
          if (!res.write(`B${String(n).padStart(6, '0')},${'b'.repeat(40)}\n`)) {
            await new Promise((drained) => res.once('drain', drained));
          }
        }
        res.end();
      },
    });
  });
  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    await server.close();
  });

  it('ends a trickle (16 bytes every 50 ms) after one window, naming the URL without its query', async () => {
    const started = performance.now();
    const result = await within(
      5000,
      readSource(`${server.base}/trickle.csv?token=s3cret`, { sourceTimeoutMs: 600 }),
    );

    expect((result as { error?: Error }).error?.message).toBe(
      `${server.base}/trickle.csv: the feed stalled: less than 1 KiB in 600 ms (--source-timeout)`,
    );
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('ends a feed that never answers', async () => {
    const result = await within(5000, readSource(`${server.base}/silent.csv`, { sourceTimeoutMs: 400 }));
    expect((result as { error?: Error }).error?.message).toBe(
      `${server.base}/silent.csv: the feed stalled: less than 1 KiB in 400 ms (--source-timeout)`,
    );
  });

  it('reads a slow feed that delivers over 1 KiB in every window', async () => {
    const result = await within(10_000, readSource(`${server.base}/steady.csv`, { sourceTimeoutMs: 600 }));
    expect((result as { records?: unknown[] }).records).toHaveLength(20);
  });

  it('does not count the time the reader is busy: a paused read is no stall', async () => {
    const opened = await openSource(`${server.base}/big.csv`, { sourceTimeoutMs: 300 });
    let count = 0;
    for await (const record of opened.records) {
      count++;
      // The run is busy elsewhere (workers draining the queue) for longer than the window.
      if (record.row === 1 || record.row === 10_000) await sleep(800);
    }
    expect(count).toBe(20_000);
  });

  it('gives connecting 10 s (here 200 ms), through the injected connector', async () => {
    const network = loopbackNetwork({ 'feed.example.test': '203.0.113.10' });
    const result = await within(
      5000,
      readSource(`http://feed.example.test:${server.port}/feed.csv`, {
        network: { ...network, connect: () => new Promise(() => undefined) },
        connectTimeoutMs: 200,
      }),
    );
    expect((result as { error?: Error }).error?.message).toBe(
      `http://feed.example.test:${server.port}/feed.csv: cannot fetch the feed: could not connect to feed.example.test:${server.port} within 200 ms`,
    );
  });

  describe('through the CLI', () => {
    const processes = new CliProcesses();
    const folder = tempFolder();
    let prefix: string;
    const env = () => ({
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'error',
    });

    beforeAll(() => {
      prefix = uniquePrefix();
    });
    afterEach(() => processes.stopAll());
    afterAll(async () => {
      await removePrefix(prefix);
      folder.remove();
    });

    it('`run URL --source-timeout 1s` on a trickle: exit 2 and one line naming the URL', async () => {
      const child = processes.spawn(
        ['run', `${server.base}/trickle.csv?token=s3cret`, '--sandbox', '--source-timeout', '1s'],
        env(),
      );
      const { code } = await within(20_000, child.exited);

      expect(code).toBe(2);
      expect(child.stderr().trim().split('\n')).toEqual([
        `catalog-sync: ${server.base}/trickle.csv: the feed stalled: less than 1 KiB in 1 s (--source-timeout)`,
      ]);
    });

    it('a job file sets it with sourceTimeout', async () => {
      const job = join(folder.dir, 'trickle.yml');
      writeFileSync(job, `source: ${server.base}/trickle.csv\nsourceTimeout: 700ms\n`);

      // A feed on loopback named by a job file takes the operator's flag (docs/security.md).
      const result = await within(
        20_000,
        runCli(['run', '--job', job, '--sandbox', '--allow-private-source'], env()),
      );

      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `catalog-sync: ${server.base}/trickle.csv: the feed stalled: less than 1 KiB in 700 ms (--source-timeout)\n`,
      );
    });
  });
});

describe('reading a stalled feed after it was opened', () => {
  it('fails the read, not the process', async () => {
    const server = await loopbackServer({
      '/half.csv': (_req, res) => {
        res.writeHead(200);
        res.write(`sku,name\n${'H,half\n'.repeat(20_000)}`);
      },
    });
    try {
      const opened = await openSource(`${server.base}/half.csv`, { sourceTimeoutMs: 300 });
      await expect(within(5000, readAll(opened))).rejects.toThrow('the feed stalled');
    } finally {
      await server.close();
    }
  });
});
