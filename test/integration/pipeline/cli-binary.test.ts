import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { catalogRows, writeCsv } from '../support/catalog.js';
import { type CliChild, CliProcesses } from '../support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

/** The built CLI as a user runs it, against the sandbox served by `catalog-sync sandbox` in its own process. */
describe('node bin/catalog-sync.js, as a user runs it', () => {
  const processes = new CliProcesses();
  let sandbox: CliChild;
  let baseUrl: string;
  let prefix: string;
  let dir: string;

  beforeEach(async () => {
    prefix = uniquePrefix();
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-cli-'));
    sandbox = processes.spawn(['sandbox', '--port', '0', '--key', 'k1=s1'], { ...process.env });
    const [, url] = await sandbox.waitForStdout(/^SELLER_API_BASE_URL=(\S+)$/m);
    baseUrl = url!;
  });
  afterEach(async () => {
    await processes.stopAll();
    await removePrefix(prefix);
    await rm(dir, { recursive: true, force: true });
  });

  function env(key: string): NodeJS.ProcessEnv {
    return {
      ...process.env,
      SELLER_API_BASE_URL: baseUrl,
      SELLER_API_KEY: key,
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
      LOG_LEVEL: 'warn',
    };
  }

  async function seam(path: string) {
    return (await fetch(`${baseUrl.replace(/\/api\/v1$/, '/__sandbox')}${path}`)).json();
  }

  it('prints the paste-ready lines of the sandbox, with the key it was given', () => {
    expect(sandbox.stdout()).toMatch(/^SELLER_API_KEY=k1 {2}# seller s1$/m);
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
  });

  it('`ping` exits 0 with a valid key', async () => {
    const ping = processes.spawn(['ping'], env('k1'));

    expect(await ping.exited).toEqual({ code: 0, signal: null });
    expect(ping.stdout()).toContain('is valid');
  });

  it('`ping` exits 3 with an unknown key, in one line that does not echo the key', async () => {
    const ping = processes.spawn(['ping'], env('not-a-key-42'));

    expect((await ping.exited).code).toBe(3);
    expect(ping.stderr().trim().split('\n')).toEqual([expect.stringContaining('401')]);
    expect(ping.stderr()).not.toContain('not-a-key-42');
  });

  it('`run <csv>` prints the summary on stdout and exits 0; the sandbox then holds the rows', async () => {
    const source = await writeCsv(dir, 'catalog.csv', catalogRows(120));
    const run = processes.spawn(['run', source], env('k1'));

    expect(await run.exited).toEqual({ code: 0, signal: null });

    expect(run.stdout()).toMatch(/^run \S+: done in /m);
    expect(run.stdout()).toContain('rows      120: 120 created, 0 updated, 0 unchanged, 0 invalid, 0 failed');
    const products = (await seam('/products?seller=s1')) as { data: unknown[] };
    expect(products.data).toHaveLength(120);
    expect(await seam('/stats')).toMatchObject({ byRoute: { 'GET /products': 1, 'POST /products': 120 } });
  });

  it('`run` exits 1 when a row is invalid, and 2 with one line when the source is missing', async () => {
    const rows = [...catalogRows(2), { sku: 'BAD', name: 'Bad', price: 'cheap' }];
    const invalid = processes.spawn(['run', await writeCsv(dir, 'bad.csv', rows)], env('k1'));
    const missing = processes.spawn(['run', join(dir, 'nowhere.csv')], env('k1'));

    expect((await invalid.exited).code).toBe(1);
    expect((await missing.exited).code).toBe(2);
    expect(missing.stderr().trim().split('\n')).toEqual([expect.stringContaining('nowhere.csv')]);
  });

  it('`run` exits 3 when the key is rejected', async () => {
    const run = processes.spawn(['run', await writeCsv(dir, 'catalog.csv', catalogRows(3))], env('revoked'));

    expect((await run.exited).code).toBe(3);
    expect(run.stderr()).not.toContain('revoked');
  });
});
