import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackNetwork, runCliWithNetwork } from '../../hostile/support.js';
import { useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from './catalog.js';
import { type CliResult, runCli } from './cli.js';
import { usePipeline } from './pipeline.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix, withRedis } from './redis-prefix.js';
import { until } from './until.js';

/**
 * The rig's own teardown: an in-process CLI call that outlives its test (not awaited, or its test
 * timed out) must not write under the test's prefix once it is removed. Each first test below
 * leaves a call running and ends; the hooks of usePipeline run; the next test looks at what is left.
 */

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

/**
 * A feed on loopback: `rows` rows at once (3,000 are more than the 64 KiB a run sniffs), then the
 * answer ends `delayMs` later (never, if null).
 */
async function feed(rows: number, delayMs: number | null): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/csv' });
    response.write('sku,name,price\n');
    for (const row of catalogRows(rows))
      response.write(`${row.sku},"${row.name} with a longer name",${row.price}\n`);
    if (delayMs !== null) setTimeout(() => response.end(), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`, server };
}

// The modules of `run` loaded before the first test: loading them (seconds on a busy machine) is
// not to outlast the teardown's wait, which would then interrupt a call meant to end by itself.
beforeAll(async () => {
  await runCli(['run', '--help'], {});
});

interface LeftBehind {
  prefix: string;
  call: Promise<CliResult>;
  cli: (args: string[]) => Promise<CliResult>;
}

describe('usePipeline, after a test that left a CLI call running', () => {
  const pipeline = usePipeline();
  let left: LeftBehind | null = null;
  let server: Server | null = null;
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    // Whatever the outcome, nothing of these tests stays in the shared Redis.
    if (left) await removePrefix(left.prefix);
  });

  it('(the call: a run of a feed that ends 300 ms after the test, not awaited)', async () => {
    const slow = await feed(5, 300);
    server = slow.server;
    left = { prefix: pipeline.prefix, call: pipeline.cli(['run', slow.url]), cli: pipeline.cli };
  });

  it('waited for the call to end before removing the prefix: no key under it is left', async () => {
    expect(left).not.toBeNull();
    const result = await left?.call;
    // It ended (by itself, or interrupted if it was slow to) before the sandbox closed, too.
    expect(result?.stderr).not.toMatch(/cannot reach/);
    expect(await keysUnder(left?.prefix ?? '')).toEqual([]);
  });

  it('refuses a CLI call of the ended test: it would write under the removed prefix', async () => {
    await expect(left?.cli(['status'])).rejects.toThrow(/ended/);
  });
});

describe('useFailureRig (the failure tests), after a test that left a CLI call running', () => {
  const rig = useFailureRig();
  let left: LeftBehind | null = null;
  let server: Server | null = null;
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    if (left) await removePrefix(left.prefix);
  });

  it('(the call: a run of a feed that ends 300 ms after the test, not awaited)', async () => {
    const slow = await feed(5, 300);
    server = slow.server;
    left = { prefix: rig.prefix, call: rig.cli(['run', slow.url]), cli: rig.cli };
  });

  it('waited for it, the sandbox still open, before removing the prefix; refuses a call of that test', async () => {
    const result = await left?.call;
    expect(result?.stderr).not.toMatch(/cannot reach/);
    expect(await keysUnder(left?.prefix ?? '')).toEqual([]);
    await expect(left?.cli(['status'])).rejects.toThrow(/ended/);
  });
});

describe('usePipeline, after a test that left a CLI call that does not end by itself', () => {
  const pipeline = usePipeline();
  let left: LeftBehind | null = null;
  let server: Server | null = null;
  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    if (left) await removePrefix(left.prefix);
  });

  it('(the call: a run of a feed that stalls mid-read, not awaited)', async () => {
    // Open until afterAll: nothing but the rig's interrupt ends the run.
    const stalling = await feed(3000, null);
    server = stalling.server;
    left = { prefix: pipeline.prefix, call: pipeline.cli(['run', stalling.url]), cli: pipeline.cli };
    await until('the run to begin its writes', () => pipeline.sandbox.stats().writesApplied > 0);
  });

  it('interrupted it as SIGINT does, waited for it, then removed the prefix', async () => {
    expect(left).not.toBeNull();
    const result = await left?.call;
    expect(result?.code).toBe(130);
    expect(result?.stderr).toContain('interrupted (SIGINT) before the source was read to the end');
    expect(await keysUnder(left?.prefix ?? '')).toEqual([]);
  });
});

describe('removePrefix, with a CLI call under the prefix that an interrupt does not end', () => {
  /**
   * `start`s a `ping` of an API that never answers, under a prefix of its own: ping hears no
   * interrupt (one request, bounded by its timeout). Resolves once removePrefix named it, and it ended.
   * (A `run` hears one from its start, its source's first bytes awaited included: signals.ts.)
   */
  async function leftWaiting(start: (env: NodeJS.ProcessEnv) => Promise<CliResult>) {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const prefix = uniquePrefix();
    const env = {
      ...process.env,
      SELLER_API_BASE_URL: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/api/v1`,
      SELLER_API_KEY: 'sk_never_answered',
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'silent',
    };
    const call = start(env);
    try {
      await expect(removePrefix(prefix, TEST_REDIS_URL, { graceMs: 50, interruptedMs: 50 })).rejects.toThrow(
        'catalog-sync ping',
      );
      // Still running: the error was the rig's, not the end of the call.
      expect(
        await Promise.race([
          call.then(() => 'ended'),
          new Promise((resolve) => setImmediate(resolve, 'running')),
        ]),
      ).toBe('running');
    } finally {
      silent.closeAllConnections();
      silent.close();
      await call.catch(() => undefined);
      await removePrefix(prefix);
    }
  }

  it('removes the prefix, then fails naming the call', async () => {
    await leftWaiting((env) => runCli(['ping'], env));
  });

  it('knows the calls of runCliWithNetwork (the hostile tests) too', async () => {
    await leftWaiting((env) => runCliWithNetwork(['ping'], env, loopbackNetwork({})));
  });
});
