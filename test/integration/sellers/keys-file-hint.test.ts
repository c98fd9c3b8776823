import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectExactCatalog } from '../failures/support/exact-catalog.js';
import { KEY_A, runDone, SELLER_A, useFailureRig } from '../failures/support/rig.js';
import { catalogRows } from '../support/catalog.js';

/** Shop B's key: the sandbox knows two sellers, and a hint that names the other's key writes into it. */
const KEY_B = 'sk_shop_b_key';
const SELLER_B = 'seller-b';
const EVERY_SECOND = '* * * * * *';

/** The rig's environment without any key variable: the keys come from the file only. */
function envWithoutKeys(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of Object.keys(copy)) if (name.startsWith('SELLER_API_KEY')) delete copy[name];
  return copy;
}

/**
 * The missing-key line's hint, done as a newcomer does it: the first `--key-env NAME` it names
 * replaces the one given (whatever the verb: the option is refused when given twice); a line to add
 * to the keys file is added with the key the user has for the seller they meant (shop B's).
 */
function follow(line: string, args: string[], keys: { path: string; text: string }): string[] {
  const option = /--key-env ([\w<>]+)/.exec(line)?.[1];
  const added = / as (\S+)=KEY\b/.exec(line)?.[1];
  if (added !== undefined) keys.text += `${added.replace('<NAME>', 'SHOP_B')}=${KEY_B}\n`;
  if (option === undefined) return args;
  const name = option.replace('<NAME>', 'SHOP_B');
  const at = args.indexOf('--key-env');
  return at === -1 ? [...args, '--key-env', name] : args.with(at + 1, name);
}

describe('the hint of a key missing from --keys-file, followed, writes only into the seller meant', () => {
  const rig = useFailureRig(() => ({
    keys: [
      { key: KEY_A, seller: SELLER_A },
      { key: KEY_B, seller: SELLER_B },
    ],
  }));

  async function keysFile(name: string, text: string): Promise<string> {
    const path = join(rig.dir, name);
    await writeFile(path, text);
    await chmod(path, 0o600);
    return path;
  }

  it.each<[string, string, string[]]>([
    [
      "shop B's variable, the file holding acme's only",
      'SELLER_API_KEY_ACME=KA\n',
      ['--key-env', 'SELLER_API_KEY_SHOP_B'],
    ],
    [
      "shop B's variable mistyped, the file holding acme's first",
      'SELLER_API_KEY_ACME=KA\nSELLER_API_KEY_SHOP_B=KB\n',
      ['--key-env', 'SELLER_API_KEY_SHOPB'],
    ],
    [
      "no --key-env, --seller shop-b, the file holding acme's only",
      'SELLER_API_KEY_ACME=KA\n',
      ['--seller', 'shop-b'],
    ],
  ])('%s: nothing reaches acme, shop B gets its catalog', async (_, text, given) => {
    const keys = { path: join(rig.dir, 'keys.env'), text: text.replace('KA', KEY_A).replace('KB', KEY_B) };
    const source = await rig.csv('shop-b.csv', catalogRows(5));
    const env = envWithoutKeys(rig.env());
    const run = async (args: string[]) => {
      await keysFile('keys.env', keys.text);
      return rig.cli(['run', source, ...args, '--keys-file', keys.path], env);
    };

    const refused = await run(given);
    expect(refused.code).toBe(2);
    const line = refused.stderr.trim();
    expect(line.split('\n')).toHaveLength(1);
    expect(line).not.toContain('--key-env SELLER_API_KEY_ACME');

    const followed = await run(follow(line, given, keys));

    expect(rig.sandbox.products(SELLER_A)).toEqual([]);
    expect(followed.code, followed.stderr).toBe(0);
    expectExactCatalog(rig.sandbox.products(SELLER_B), catalogRows(5));
    expect(refused.stderr + followed.stdout + followed.stderr).not.toContain(KEY_A);
  });

  it("a job file's mistyped keyEnv: the worker's line names the job file's key, and the edit it says syncs shop B", {
    timeout: 60_000,
  }, async () => {
    const jobsDir = join(rig.dir, 'jobs');
    await mkdir(jobsDir);
    await rig.csv('shop-b.csv', catalogRows(5));
    const job = (keyEnv: string) =>
      writeFile(
        join(jobsDir, 'shop-b.yml'),
        `source: shop-b.csv\nkeyEnv: ${keyEnv}\nseller: shop-b\nschedule: "${EVERY_SECOND}"\n`,
      );
    await job('SELLER_API_KEY_SHOPB');
    const file = await keysFile('keys.env', `SELLER_API_KEY_ACME=${KEY_A}\nSELLER_API_KEY_SHOP_B=${KEY_B}\n`);
    const env = envWithoutKeys(rig.env());
    expect((await rig.cli(['schedule', '--jobs', jobsDir], env)).code).toBe(0);
    const worker = rig.spawn(['worker', '--jobs', jobsDir, '--keys-file', file], {
      ...env,
      LOG_LEVEL: 'info',
    });

    const [line] = await worker.waitForStderr(/^.*scheduled import shop-b failed: .*$/m);
    const said = (JSON.parse(line as string) as { msg: string }).msg;
    expect(said).toBe(
      `scheduled import shop-b failed: SELLER_API_KEY_SHOPB is not set, and --keys-file ${file} does not hold it (it holds SELLER_API_KEY_ACME, SELLER_API_KEY_SHOP_B): use keyEnv: SELLER_API_KEY_SHOP_B in shop-b.yml instead`,
    );

    // Done as said: the job file read anew at the next firing.
    await job('SELLER_API_KEY_SHOP_B');
    const [, runId] = await worker.waitForStderr(/scheduled import shop-b queued as run (\S+?)"/);
    const status = await runDone(rig, runId as string);

    expect(status.counts).toMatchObject({ created: 5, failed: 0 });
    expect(rig.sandbox.products(SELLER_A)).toEqual([]);
    expectExactCatalog(rig.sandbox.products(SELLER_B), catalogRows(5));
  });
});
