import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../integration/support/redis-prefix.js';
import { loopbackFetch } from './network-guard.js';
import { body, loopbackNetwork, loopbackServer, runCliWithNetwork } from './support.js';

// Whatever the code under test does, nothing leaves loopback (see network-guard.ts).
vi.mock('node:dns/promises', async (original) => (await import('./network-guard.js')).guardedDns(original));
vi.mock('node:net', async (original) => (await import('./network-guard.js')).guardedNet(original));
vi.mock('node:tls', async (original) => (await import('./network-guard.js')).guardedTls(original));
vi.stubGlobal('fetch', loopbackFetch(globalThis.fetch));
vi.mock('node:http', async (original) => (await import('./network-guard.js')).guardedHttp(original));
vi.mock('node:https', async (original) => (await import('./network-guard.js')).guardedHttp(original));

/**
 * A job file's `source: http://127.0.0.1:7310/feed.csv` was fetched with no flag: a job file's
 * choices are not trusted (docs/security.md), and a feed on loopback or a private network is read
 * only when the operator names it. From a job file it takes the operator's --allow-private-source.
 */
describe("a job file's feed on loopback or a private network", () => {
  const prefix = uniquePrefix();
  const env = { ...process.env, REDIS_URL: TEST_REDIS_URL, CATALOG_SYNC_PREFIX: prefix, LOG_LEVEL: 'error' };
  let server: Awaited<ReturnType<typeof loopbackServer>>;
  let dir = '';
  let job = '';
  const network = () => loopbackNetwork({ 'feed.example.test': '127.0.0.1' });

  beforeAll(async () => {
    server = await loopbackServer({ '/feed.csv': body('sku,name,price\nA1,Mug,9.50\n') });
    dir = await mkdtemp(join(tmpdir(), 'job-feed-'));
    await mkdir(join(dir, 'jobs'));
    job = join(dir, 'jobs', 'nightly.yml');
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
    await removePrefix(prefix);
  });

  it.each([
    ['an address', () => server.base],
    ['a host name that resolves to one', () => `http://feed.example.test:${server.port}`],
  ])('named by %s: refused in one line, exit 2, no connection', async (_how, base) => {
    await writeFile(job, `source: ${base()}/feed.csv\n`, 'utf8');
    const seams = network();

    const result = await runCliWithNetwork(['run', '--job', job, '--sandbox', '--dry-run'], env, seams);

    expect(result.code).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^catalog-sync: http:\/\/\S+\/feed\.csv: refused: .+ is a loopback address named by a job file; --allow-private-source allows it$/,
    );
    expect(seams.attempts).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('with --allow-private-source on the command line, the operator reads it', async () => {
    await writeFile(job, `source: http://feed.example.test:${server.port}/feed.csv\n`, 'utf8');

    const result = await runCliWithNetwork(
      ['run', '--job', job, '--sandbox', '--dry-run', '--allow-private-source'],
      env,
      network(),
    );

    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
  });

  it('the same feed given on the command line is read as it was', async () => {
    await writeFile(job, 'dryRun: true\nsource: ignored.csv\n', 'utf8');

    const result = await runCliWithNetwork(
      ['run', '--job', job, `http://feed.example.test:${server.port}/feed.csv`, '--sandbox'],
      env,
      network(),
    );

    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
  });
});
