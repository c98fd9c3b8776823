import { chmod, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HeldRequest } from '../../../src/sandbox/options.js';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { eventually, runDone, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';

const OLD_C = 'sk_ccc_old';
const NEW_C = 'sk_ccc_new';
const SELLER_C = 'seller-c';

/** The rig's environment without any key variable: the keys come from the file only. */
function envWithoutKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of Object.keys(copy)) if (name.startsWith('SELLER_API_KEY')) delete copy[name];
  return copy;
}

/** Writes the keys file as docs/operations.md asks: a new file of mode 600, renamed into place. */
async function writeKeys(path: string, key: string): Promise<void> {
  await writeFile(`${path}.new`, `SELLER_API_KEY_C=${key}\n`);
  await chmod(`${path}.new`, 0o600);
  await rename(`${path}.new`, path);
}

/** What the sandbox's `hold` does: set per test (the sandbox's options are read before it). */
let onRequest: (request: HeldRequest) => Promise<unknown> | undefined = () => undefined;

describe("a key rotated in a running worker's --keys-file", () => {
  const rig = useFailureRig(() => ({ hold: (request) => onRequest(request) }));

  it('is never sent with once the file is read again: the run waits for `resume` to link the new key (status says so), then ends exact with it, with no 401', {
    timeout: 90_000,
  }, async () => {
    rig.sandbox.addKey(OLD_C, SELLER_C);
    const file = join(rig.dir, 'keys.env');
    await writeKeys(file, OLD_C);
    const env = envWithoutKeys(rig.env());
    // The third create waits at the sandbox while the key is rotated. From the first request that
    // reaches the sandbox after the worker read the file again, the old key is revoked: a request
    // sent with it then answers 401. The held create was sent before: it is served.
    let writes = 0;
    let heldNow = false;
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reloaded = false;
    let revoked = false;
    onRequest = (request) => {
      if (reloaded && !revoked) {
        rig.sandbox.revokeKey(OLD_C);
        revoked = true;
      }
      if (request.method === 'POST' && request.path === '/products' && ++writes === 3) {
        heldNow = true;
        return gate;
      }
      return undefined;
    };
    // One request at a time: the next one leaves only once the held one is answered.
    const worker = rig.spawn(['worker', '--keys-file', file, '--concurrency', '1'], {
      ...env,
      LOG_LEVEL: 'info',
    });
    const rows = catalogRows(30);
    const imported = await rig.cli(
      [
        'import',
        await rig.csv('shop-c.csv', rows),
        '--seller',
        'shop-c',
        '--key-env',
        'SELLER_API_KEY_C',
        '--keys-file',
        file,
      ],
      env,
    );
    expect(imported.code, imported.stderr).toBe(0);
    const runId = runIdOf(imported.stdout);
    await eventually('the third create to be held', () => (heldNow ? true : undefined));

    rig.sandbox.addKey(NEW_C, SELLER_C);
    await writeKeys(file, NEW_C);
    await eventually('the worker to read the file again', () =>
      worker.stderr().includes('read again: SELLER_API_KEY_C changed') ? true : undefined,
    );
    reloaded = true;
    release();

    // The new key is linked to no seller yet: nothing tells the worker it is shop-c's but `resume`.
    const waiting = await eventually('status to say the changed key waits for `resume`', async () => {
      const status = await rig.cli(['status', runId], env);
      return status.stdout.split('\n').find((line) => line.includes('not linked'));
    }).catch(async (error: Error) => {
      const status = await rig.cli(['status', runId], env);
      throw new Error(
        `${error.message}; status: ${status.stdout}; worker stderr: ${worker.stderr().slice(-4000)}`,
      );
    });
    expect(waiting).toBe(
      '  waiting   a running worker read a changed key for seller shop-c (' +
        waiting.split('shop-c (')[1]?.split(')')[0] +
        ') in its --keys-file, one not linked to this seller yet: if it is its new key in ' +
        '$SELLER_API_KEY_C, `catalog-sync resume --seller shop-c --key-env SELLER_API_KEY_C ' +
        `--base-url ${rig.sandbox.baseUrl} --keys-file FILE\` links it`,
    );
    expect(waiting).not.toContain('no running worker holds');

    const resumed = await rig.cli(
      ['resume', '--seller', 'shop-c', '--key-env', 'SELLER_API_KEY_C', '--keys-file', file],
      env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('now serves this seller');
    const done = await runDone(rig, runId, 30_000).catch((error: Error) => {
      throw new Error(`${error.message}; worker stderr: ${worker.stderr().slice(-3000)}`);
    });

    expect(revoked, 'a request reached the sandbox after the reload').toBe(true);
    expect(rig.sandbox.stats().byStatus['401'] ?? 0, 'requests sent with the old key after the reload').toBe(
      0,
    );
    expect(done.counts).toMatchObject({ created: rows.length, failed: 0 });
    expectExactCatalog(rig.sandbox.products(SELLER_C), rows);
    const output = worker.stdout() + worker.stderr() + resumed.stdout + resumed.stderr;
    expect(output).not.toContain(OLD_C);
    expect(output).not.toContain(NEW_C);
  });
});
