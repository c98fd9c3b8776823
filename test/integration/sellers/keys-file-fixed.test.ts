import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import {
  eventually,
  type FailureRig,
  KEY_A,
  type RunStatus,
  runDone,
  SELLER_A,
  useFailureRig,
} from '../failures/support/rig.js';
import { type CatalogRow, catalogRows } from '../support/catalog.js';
import type { CliChild } from '../support/cli.js';
import { runIdOf } from '../support/cli.js';

const KEY_B = 'sk_bbb_right';
const WRONG_B = 'sk_bbb_WRONG';
const SELLER_B = 'seller-b';

/** The rig's environment without any key variable: the keys come from the file only. */
function envWithoutKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of Object.keys(copy)) if (name.startsWith('SELLER_API_KEY')) delete copy[name];
  return copy;
}

/** Writes (or rewrites in place, as an editor saving it) a keys file of mode 600. */
async function writeKeys(path: string, keyB: string): Promise<string> {
  await writeFile(path, `SELLER_API_KEY_A=${KEY_A}\nSELLER_API_KEY_B=${keyB}\n`);
  await chmod(path, 0o600);
  return path;
}

function rejections(rig: FailureRig): number {
  return rig.sandbox.stats().byStatus['401'] ?? 0;
}

/**
 * A worker serving two named sellers from one keys file, seller B's key mistyped in it: both
 * imported, seller A's run ends, seller B is paused by the 401. Resolves to B's run and the worker.
 */
async function twoSellersOneKeyWrong(
  rig: FailureRig,
  file: string,
  rowsB: CatalogRow[],
): Promise<{ runB: string; worker: CliChild }> {
  rig.sandbox.addKey(KEY_B, SELLER_B);
  const env = envWithoutKeys(rig.env());
  const worker = rig.spawn(['worker', '--keys-file', file], env);
  const imported = async (seller: string, keyEnv: string, rows: CatalogRow[]) => {
    const source = await rig.csv(`${seller}.csv`, rows);
    const result = await rig.cli(
      ['import', source, '--seller', seller, '--key-env', keyEnv, '--keys-file', file],
      env,
    );
    expect(result.code, result.stderr).toBe(0);
    return runIdOf(result.stdout);
  };
  const rowsA = catalogRows(20);
  const runA = await imported('s12-a', 'SELLER_API_KEY_A', rowsA);
  const runB = await imported('s12-b', 'SELLER_API_KEY_B', rowsB);

  await eventually('seller B marked key rejected', async () => {
    const status: RunStatus = await rig.status(runB, env);
    return status.seller.authRejected ? true : undefined;
  });
  await runDone(rig, runA);
  expectExactCatalog(rig.sandbox.products(SELLER_A), rowsA);
  expect(rig.sandbox.products(SELLER_B)).toHaveLength(0);
  return { runB, worker };
}

describe('a running worker whose keys file held a wrong key', () => {
  const rig = useFailureRig();

  it('fixing the keys file and running `resume` is enough: the same worker ends the run with the fixed key, with no second 401', {
    timeout: 60_000,
  }, async () => {
    const file = await writeKeys(join(rig.dir, 'keys.env'), WRONG_B);
    const rowsB = catalogRows(30);
    const { runB, worker } = await twoSellersOneKeyWrong(rig, file, rowsB);
    const rejected = rejections(rig);
    expect(rejected).toBeGreaterThan(0);

    await writeKeys(file, KEY_B);
    const resumed = await rig.cli(
      ['resume', '--seller', 's12-b', '--keys-file', file, '--key-env', 'SELLER_API_KEY_B'],
      envWithoutKeys(rig.env()),
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('seller s12-b');
    expect(resumed.stdout).toContain('resumed');
    const logged = worker.stderr().length;
    const done = await runDone(rig, runB, 20_000).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().slice(logged).trim()}`);
    });

    expect(done.counts).toMatchObject({ created: rowsB.length, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_B), rowsB);
    expect(rejections(rig), 'requests answered 401').toBe(rejected);
    const output = worker.stdout() + worker.stderr() + resumed.stdout + resumed.stderr;
    expect(output).not.toContain(KEY_B);
    expect(output).not.toContain(WRONG_B);
  });

  it('resumed with the right key from elsewhere, the worker still holding the rejected key sends nothing with it, says so in one line, and does not pause the seller again', {
    timeout: 60_000,
  }, async () => {
    const file = await writeKeys(join(rig.dir, 'keys.env'), WRONG_B);
    const { runB, worker } = await twoSellersOneKeyWrong(rig, file, catalogRows(30));
    const rejected = rejections(rig);
    const fixed = await writeKeys(join(rig.dir, 'fixed.env'), KEY_B);
    const logged = worker.stderr().length;

    const resumed = await rig.cli(
      ['resume', '--seller', 's12-b', '--keys-file', fixed, '--key-env', 'SELLER_API_KEY_B'],
      envWithoutKeys(rig.env()),
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const said = await eventually('the worker to say it holds a rejected key', () => {
      const lines = worker
        .stderr()
        .slice(logged)
        .split('\n')
        .filter((line) => line.includes('not sent'));
      return lines.length > 0 ? lines : undefined;
    });

    expect(said[0]).toContain('$SELLER_API_KEY_B of this worker was rejected (401) for seller s12-b');
    expect(said[0]).not.toContain(WRONG_B);
    expect(rejections(rig), 'requests answered 401').toBe(rejected);
    expect((await rig.status(runB, envWithoutKeys(rig.env()))).seller.authRejected).toBe(false);
  });

  it('resumed from elsewhere while the worker held the rejected key: `status` does not ask for `resume` again, and the fixed keys file lets the same worker go on at once', {
    timeout: 60_000,
  }, async () => {
    const file = await writeKeys(join(rig.dir, 'keys.env'), WRONG_B);
    const rowsB = catalogRows(30);
    const { runB, worker } = await twoSellersOneKeyWrong(rig, file, rowsB);
    const fixed = await writeKeys(join(rig.dir, 'fixed.env'), KEY_B);
    const env = envWithoutKeys(rig.env());
    const logged = worker.stderr().length;
    const resumed = await rig.cli(
      ['resume', '--seller', 's12-b', '--keys-file', fixed, '--key-env', 'SELLER_API_KEY_B'],
      env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    await eventually('the worker to put the chunk off', () =>
      worker.stderr().slice(logged).includes('not sent') ? true : undefined,
    );

    const status = await rig.cli(['status', runB], env);
    const keys = status.stdout.split('\n').find((line) => line.startsWith('  keys'));
    expect(keys).toMatch(
      /^ {2}keys {6}1 key of this seller rejected by the API \(401\), not sent by a worker holding it: 1 chunk of this run put off until \S+Z, or until that worker's --keys-file changes \(a key in its environment takes a restart\); the seller is not paused$/,
    );

    await writeKeys(file, KEY_B);
    const done = await runDone(rig, runB, 20_000);
    expect(done.counts).toMatchObject({ created: rowsB.length, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_B), rowsB);
  });
});
