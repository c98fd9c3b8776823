import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { KEY_A, runDone, SELLER_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';

/** The rig's environment without any key variable: the keys come from the file only. */
function envWithoutKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of Object.keys(copy)) if (name.startsWith('SELLER_API_KEY')) delete copy[name];
  return copy;
}

describe('--keys-file', () => {
  const rig = useFailureRig();

  async function keysFile(text: string, mode = 0o600): Promise<string> {
    const path = join(rig.dir, 'keys.env');
    await writeFile(path, text);
    await chmod(path, mode);
    return path;
  }

  it('a run whose key is only in the keys file syncs the catalog; the key is in no output', async () => {
    const rows = catalogRows(30);
    const source = await rig.csv('catalog.csv', rows);
    const file = await keysFile(`# sellers\nSELLER_API_KEY_SHOP_A=${KEY_A}\n`);

    const result = await rig.cli(
      ['run', source, '--key-env', 'SELLER_API_KEY_SHOP_A', '--keys-file', file],
      envWithoutKeys(rig.env()),
    );

    expect(result.code, result.stderr).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(result.stdout + result.stderr).not.toContain(KEY_A);
  });

  it('`import` and a `worker` that hold the key only in their keys file sync the run', {
    timeout: 60_000,
  }, async () => {
    const rows = catalogRows(30);
    const source = await rig.csv('catalog.csv', rows);
    const file = await keysFile(`SELLER_API_KEY_SHOP_A=${KEY_A}\n`);
    const env = envWithoutKeys(rig.env());
    const args = ['--key-env', 'SELLER_API_KEY_SHOP_A', '--keys-file', file];

    const queued = await rig.cli(['import', source, ...args], env);
    expect(queued.code, queued.stderr).toBe(0);
    const worker = rig.spawn(['worker', '--keys-file', file], env);
    const done = await runDone(rig, runIdOf(queued.stdout), 30_000).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().trim()}`);
    });

    expect(done.counts).toMatchObject({ created: rows.length, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
    expect(worker.stderr() + worker.stdout()).not.toContain(KEY_A);
  });

  it('a keys file others may read is refused in one line saying chmod 600, before any request', async () => {
    const source = await rig.csv('catalog.csv', catalogRows(3));
    const file = await keysFile(`SELLER_API_KEY_SHOP_A=${KEY_A}\n`, 0o644);

    const result = await rig.cli(
      ['run', source, '--key-env', 'SELLER_API_KEY_SHOP_A', '--keys-file', file],
      envWithoutKeys(rig.env()),
    );

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(`chmod 600 ${file}`)]);
    expect(result.stderr).not.toContain(KEY_A);
    expect(rig.sandbox.stats().total).toBe(0);
  });

  it('a name the environment sets to another key is refused, naming it, for worker too', async () => {
    const file = await keysFile(`SELLER_API_KEY=${KEY_A}\n`);

    const result = await rig.cli(['worker', '--keys-file', file], rig.env('sk_other_value'));

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^catalog-sync: --keys-file .*: SELLER_API_KEY is set in the environment too/,
    );
    expect(result.stderr).not.toContain(KEY_A);
    expect(result.stderr).not.toContain('sk_other_value');
  });
});
