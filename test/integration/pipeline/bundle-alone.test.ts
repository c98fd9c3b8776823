import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { catalogRows, writeCsv } from '../support/catalog.js';
import { assertBuilt } from '../support/cli.js';
import { removePrefix, TEST_REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';

/**
 * The launcher runs the bundle `npm run build` writes (dist/bundle, src/cli/entry.ts) and nothing of
 * dist/src: a copy of the package with bin/, dist/bundle/ and package.json alone (its packages
 * linked) serves the sandbox and syncs a catalog into it. (That each command's modules still load
 * only when it runs: test/unit/cli/command-loading.test.ts, through the same launcher.)
 */
describe('bin/catalog-sync.js from dist/bundle alone', () => {
  const root = projectRoot();
  let copy = '';
  let prefix = '';
  let sandbox: ChildProcess | undefined;

  beforeAll(async () => {
    assertBuilt();
    copy = await mkdtemp(join(tmpdir(), 'catalog-sync-bundle-'));
    await cp(join(root, 'bin'), join(copy, 'bin'), { recursive: true });
    await cp(join(root, 'dist', 'bundle'), join(copy, 'dist', 'bundle'), { recursive: true });
    await cp(join(root, 'package.json'), join(copy, 'package.json'));
    await symlink(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
    prefix = uniquePrefix();
  });
  afterAll(async () => {
    sandbox?.kill();
    await removePrefix(prefix);
    await rm(copy, { recursive: true, force: true });
  });

  const launch = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    promisify(execFile)(process.execPath, [join(copy, 'bin', 'catalog-sync.js'), ...args], {
      cwd: copy,
      env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
    });

  it('syncs a catalog into the sandbox it serves', async () => {
    sandbox = spawn(
      process.execPath,
      [join(copy, 'bin', 'catalog-sync.js'), 'sandbox', '--port', '0', '--key', 'k1=s1'],
      { cwd: copy, env: { PATH: process.env.PATH }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let printed = '';
    const baseUrl = await new Promise<string>((resolve, reject) => {
      sandbox?.stdout?.setEncoding('utf8').on('data', (text: string) => {
        printed += text;
        const url = /^SELLER_API_BASE_URL=(\S+)$/m.exec(printed)?.[1];
        if (url) resolve(url);
      });
      sandbox?.once('exit', (code) => reject(new Error(`the sandbox exited ${code}: ${printed}`)));
    });
    const csv = await writeCsv(copy, 'catalog.csv', catalogRows(3));

    const { stdout } = await launch(['run', csv], {
      SELLER_API_BASE_URL: baseUrl,
      SELLER_API_KEY: 'k1',
      REDIS_URL: TEST_REDIS_URL,
      CATALOG_SYNC_PREFIX: prefix,
    });

    expect(stdout).toMatch(/rows {6}3: 3 created, 0 updated, 0 unchanged, 0 invalid, 0 failed/);
    const products = (await (
      await fetch(`${baseUrl}/products`, { headers: { authorization: 'Bearer k1' } })
    ).json()) as {
      data: Array<{ sku: string }>;
    };
    expect(products.data.map((product) => product.sku).sort()).toEqual(catalogRows(3).map((row) => row.sku));
  });

  it('prints its version and the help of a command', async () => {
    const { version } = (await import(join(root, 'package.json'), { with: { type: 'json' } })).default as {
      version: string;
    };
    expect((await launch(['--version'])).stdout.trim()).toBe(version);
    expect((await launch(['ping', '--help'])).stdout).toMatch(/^Usage: catalog-sync ping/);
  });
});
