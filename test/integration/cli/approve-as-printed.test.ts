import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { catalogRows } from '../support/catalog.js';
import { assertBuilt, BIN, runIdOf } from '../support/cli.js';
import { bySku, MAIN_KEY, MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';

const OTHER_KEY = 'sk_test_other_shop';
const SHOP = 'night-shop';

/** cron's run had these from its crontab line; the next morning's shell has none of them. */
const NOTHING_EXPORTED: NodeJS.ProcessEnv = {
  SELLER_API_KEY: undefined,
  SELLER_API_BASE_URL: undefined,
  CATALOG_SYNC_API_HOSTS: undefined,
  CATALOG_SYNC_KEY_ENVS: undefined,
};

/**
 * A run held by its guard (exit 5), made as a cron line makes it: every connection option on its
 * command line (`--base-url`, `--keys-file`, `--key-env`), nothing exported. The `approve` line its
 * summary prints must work as printed, and each refusal of an `approve` missing one of them must
 * name the option that fixes it.
 */
describe('the approve line of a held run, used as printed the next morning', () => {
  const pipeline = usePipeline({
    keys: [
      { key: MAIN_KEY, seller: MAIN_SELLER },
      { key: OTHER_KEY, seller: 'other-seller' },
    ],
  });

  /** A keys file in a folder whose name has a space: the printed line must quote it. */
  async function keysFile(name: string, key: string): Promise<string> {
    const folder = join(pipeline.dir, 'night keys');
    await mkdir(folder, { recursive: true });
    const file = join(folder, name);
    await writeFile(file, `SELLER_API_KEY_NIGHT=${key}\n`);
    await chmod(file, 0o600);
    return file;
  }

  /** Five products, then a run that triples one price: held by --max-price-change. */
  async function heldRun(): Promise<{ runId: string; stdout: string; file: string }> {
    const file = await keysFile('keys.env', MAIN_KEY);
    const options = [
      '--base-url',
      pipeline.sandbox.baseUrl,
      '--keys-file',
      file,
      '--key-env',
      'SELLER_API_KEY_NIGHT',
      '--seller',
      SHOP,
    ];
    const rows = catalogRows(5);
    const first = await pipeline.cli(
      ['run', await pipeline.csv('a.csv', rows), ...options],
      NOTHING_EXPORTED,
    );
    expect(first.code, first.stderr).toBe(0);
    const changed = rows.map((row, i) => (i === 0 ? { ...row, price: '300.00' } : row));
    const held = await pipeline.cli(
      ['run', await pipeline.csv('b.csv', changed), '--max-price-change', '50%', ...options],
      NOTHING_EXPORTED,
    );
    expect(held.code, held.stdout + held.stderr).toBe(5);
    return { runId: runIdOf(held.stdout), stdout: held.stdout, file };
  }

  /** `sh -c line`, the installed command on PATH, nothing else in the environment but Redis and the prefix. */
  async function asTyped(line: string): Promise<{ code: number | null; output: string }> {
    assertBuilt();
    const bin = join(pipeline.dir, 'bin');
    await mkdir(bin, { recursive: true });
    await symlink(BIN, join(bin, 'catalog-sync'));
    const env: NodeJS.ProcessEnv = {
      PATH: [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
      REDIS_URL: pipeline.env.REDIS_URL,
      CATALOG_SYNC_PREFIX: pipeline.prefix,
      LOG_LEVEL: 'silent',
    };
    const child = spawn('/bin/sh', ['-c', line], {
      env,
      cwd: pipeline.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      output += text;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    try {
      const [code] = (await once(child, 'exit')) as [number | null];
      return { code, output };
    } finally {
      clearTimeout(timer);
    }
  }

  it("the summary's approve line, run as printed from an empty environment, approves", {
    timeout: 60_000,
  }, async () => {
    const { runId, stdout } = await heldRun();
    const printed = /^ {2}approve {3}(catalog-sync approve .+?) {3}\(/m.exec(stdout)?.[1];
    expect(printed, stdout).toBeDefined();
    // Never the key: the variable's name and the file's path only.
    expect(stdout).not.toContain(MAIN_KEY);
    // `status` reads the run from Redis: the same line where this environment allows its host (no
    // new trust), else the options in words, for the operator to fill in with cron's.
    const allowed = await pipeline.cli(['status', runId], {
      ...NOTHING_EXPORTED,
      CATALOG_SYNC_API_HOSTS: new URL(pipeline.sandbox.baseUrl).host,
    });
    expect(allowed.stdout).toContain(`${printed}   (`);
    const bare = (await pipeline.cli(['status', runId], NOTHING_EXPORTED)).stdout;
    expect(bare).toContain(
      `  approve   catalog-sync approve ${runId} --base-url <API URL> --keys-file <keys file>   (sends the held writes;`,
    );
    expect(bare).not.toContain(pipeline.sandbox.baseUrl);

    const approved = await asTyped(printed as string);

    expect(approved.code, approved.output).toBe(0);
    expect(approved.output).toContain(`approved 1 held row of run ${runId}`);
    expect(bySku(pipeline.products()).get(catalogRows(5)[0]?.sku as string)?.price).toBe(300);
  });

  it('without --base-url: the refusal names the host and --base-url, never the URL Redis holds as a fix', async () => {
    const { runId } = await heldRun();
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['approve', runId], NOTHING_EXPORTED);

    expect(result.code).toBe(2);
    const { host } = new URL(pipeline.sandbox.baseUrl);
    expect(result.stderr).toBe(
      `catalog-sync: run ${runId} cannot be approved here: host ${host} is not allowed: a base URL not ` +
        "given on the command line must be on SELLER_API_BASE_URL's host or a host listed in " +
        "CATALOG_SYNC_API_HOSTS (a comma list, in the environment); or give the API's URL on the command " +
        'line with --base-url\n',
    );
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('without the key: the line names the keys file the run read it from, --keys-file and --key-env', async () => {
    const { runId, file } = await heldRun();

    const result = await pipeline.cli(
      ['approve', runId, '--base-url', pipeline.sandbox.baseUrl],
      NOTHING_EXPORTED,
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: SELLER_API_KEY_NIGHT is not set: run ${runId} was made with the key in it ` +
        `(give --keys-file '${file}', which run ${runId} read it from, or name another variable with --key-env)\n`,
    );
  });

  it('a keys file given without the key: the line says what the file holds, and what to add', async () => {
    const { runId } = await heldRun();
    const other = join(pipeline.dir, 'other.env');
    await writeFile(other, `SELLER_API_KEY_DAY=${MAIN_KEY}\n`);
    await chmod(other, 0o600);
    const approve = ['approve', runId, '--base-url', pipeline.sandbox.baseUrl, '--keys-file', other];

    const result = await pipeline.cli(approve, NOTHING_EXPORTED);

    expect(result.code).toBe(2);
    // The run's variable is never swapped for another (trust-rules.ts missingKeyLine).
    expect(result.stderr).toBe(
      `catalog-sync: run ${runId}'s key: SELLER_API_KEY_NIGHT is not set, and --keys-file ${other} does not ` +
        "hold it (it holds SELLER_API_KEY_DAY): add this seller's key to it as SELLER_API_KEY_NIGHT=KEY\n",
    );
    // As it says: approved.
    await writeFile(other, `SELLER_API_KEY_DAY=${MAIN_KEY}\nSELLER_API_KEY_NIGHT=${MAIN_KEY}\n`);
    const approved = await pipeline.cli(approve, NOTHING_EXPORTED);
    expect(approved.code, approved.stderr).toBe(0);
  });

  it("another seller's key: the line names the run's seller by its name, and --key-env / --keys-file", async () => {
    const { runId } = await heldRun();
    const wrong = await keysFile('other.env', OTHER_KEY);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(
      ['approve', runId, '--base-url', pipeline.sandbox.baseUrl, '--keys-file', wrong],
      NOTHING_EXPORTED,
    );

    expect(result.code).toBe(2);
    const ref = (await pipeline.cli(['status', runId, '--json'], NOTHING_EXPORTED)).stdout.match(
      /"sellerRef":\s*"([^"]+)"/,
    )?.[1];
    expect(result.stderr).toBe(
      `catalog-sync: SELLER_API_KEY_NIGHT holds another seller's key: run ${runId} is seller ${SHOP} (${ref})'s; ` +
        `give --keys-file '${join(pipeline.dir, 'night keys', 'keys.env')}', which run ${runId} read it from, ` +
        'or name the variable that holds its key with --key-env\n',
    );
    expect(result.stderr).not.toContain(OTHER_KEY);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
  it("revert with another seller's key: the line names the run's seller and its keys file, as approve's", async () => {
    const { runId, file } = await heldRun();
    const wrong = await keysFile('other.env', OTHER_KEY);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(
      ['revert', runId, '--base-url', pipeline.sandbox.baseUrl, '--keys-file', wrong],
      NOTHING_EXPORTED,
    );

    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`run ${runId} is seller ${SHOP} (`);
    expect(result.stderr).toContain(
      `nothing was read or sent; give --keys-file '${file}', which run ${runId} read it from, ` +
        'or name the variable that holds its key with --key-env\n',
    );
    expect(result.stderr).not.toContain(OTHER_KEY);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
  it('a record rewritten in Redis is never printed as a command: not by status, nor by the refusal', {
    timeout: 60_000,
  }, async () => {
    const { runId, stdout } = await heldRun();
    // Whoever can write Redis: the key of a keys file it names, sent in the clear to its host.
    const forgedUrl = 'http://collector.invalid/api/v1';
    const forgedFile = '/srv/forged/keys.env';
    await withRedis(async (redis) => {
      const key = new RedisKeys(pipeline.prefix).run(runId);
      const spec = JSON.parse((await redis.hget(key, 'spec')) as string) as Record<string, unknown>;
      await redis.hset(key, {
        spec: JSON.stringify({ ...spec, baseUrl: forgedUrl, keysFile: forgedFile, allowInsecure: true }),
      });
    });
    pipeline.sandbox.resetStats();

    // The run's own summary was printed from its own options, before any of this.
    expect(stdout).toContain(`--base-url ${pipeline.sandbox.baseUrl} --keys-file`);
    const placeholders = `  approve   catalog-sync approve ${runId} --base-url <API URL> --keys-file <keys file>   (`;
    for (const env of [
      NOTHING_EXPORTED,
      // The run's real API allowed here is no vouching for the host the record names now.
      { ...NOTHING_EXPORTED, SELLER_API_BASE_URL: pipeline.sandbox.baseUrl },
      // Its host allowed, the record's http:// is still no --allow-insecure.
      { ...NOTHING_EXPORTED, CATALOG_SYNC_API_HOSTS: 'collector.invalid' },
    ]) {
      const status = await pipeline.cli(['status', runId], env);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(placeholders);
      expect(status.stdout).not.toContain('collector.invalid');
      expect(status.stdout).not.toContain(forgedFile);
      expect(status.stdout).not.toContain('--allow-insecure');
    }
    // Shown as what Redis holds, as information: `status --json`.
    expect((await pipeline.cli(['status', runId, '--json'], NOTHING_EXPORTED)).stdout).toContain(forgedUrl);

    const refused = await pipeline.cli(['approve', runId], NOTHING_EXPORTED);

    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `run ${runId} cannot be approved here: host collector.invalid is not allowed: `,
    );
    expect(refused.stderr).toContain("; or give the API's URL on the command line with --base-url\n");
    expect(refused.stderr).not.toContain(forgedUrl);
    expect(refused.stderr).not.toContain(forgedFile);
    expect(refused.stderr).not.toContain('--allow-insecure');
    expect(pipeline.sandbox.stats().total).toBe(0);
  });
});
