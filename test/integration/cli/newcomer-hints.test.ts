import { spawnSync } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/project-root.js';
import { displayRedisUrl } from '../../../src/redis/connect.js';
import { catalogRows } from '../support/catalog.js';
import { assertBuilt, BIN } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';

/**
 * What a newcomer following only the README meets: each line names what is at fault and a next
 * step that works as typed. The lines are built by pure code (tested in test/unit); these check
 * that the commands hand them what they know (the keys file read, the Redis and prefix asked).
 */
describe('hints that lead somewhere', () => {
  const pipeline = usePipeline();
  const where = () =>
    `Redis at ${displayRedisUrl(TEST_REDIS_URL)} under CATALOG_SYNC_PREFIX=${pipeline.prefix}`;

  it('a key under another name in --keys-file: the line names it and the --key-env that reads it', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(2));
    const keys = join(pipeline.dir, 'keys.env');
    await writeFile(keys, 'SELLER_API_KEY_SHOP=sk_test_main\n');
    await chmod(keys, 0o600);
    const { SELLER_API_KEY: _unset, ...env } = pipeline.env;

    const result = await pipeline.cli(['run', source, '--keys-file', keys], { ...env, SELLER_API_KEY: '' });

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: SELLER_API_KEY is not set, and --keys-file ${keys} holds SELLER_API_KEY_SHOP only: add --key-env SELLER_API_KEY_SHOP\n`,
    );
    const followed = await pipeline.cli(
      ['run', source, '--keys-file', keys, '--key-env', 'SELLER_API_KEY_SHOP'],
      {
        SELLER_API_KEY: '',
      },
    );
    expect(followed.code).toBe(0);
  });

  it('`status` with no run says where it looked, and a command that runs as typed', async () => {
    const result = await pipeline.cli(['status']);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: no run yet in ${where()}: start one with \`catalog-sync run products.csv\` (your file), ` +
        `or rehearse with \`catalog-sync run ${join(projectRoot(), 'fixtures', 'catalog.csv')} --sandbox\`\n`,
    );
  });

  it.each([['status'], ['report'], ['cancel'], ['approve'], ['revert']])(
    '`%s` of an unknown id names the Redis and the prefix it looked in',
    async (command) => {
      const result = await pipeline.cli([command, '20200101T000000-abcdef']);

      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        `catalog-sync: no run 20200101T000000-abcdef in ${where()} (runs are kept 7 days)\n`,
      );
    },
  );

  /** The built CLI as a user types it, in `cwd` (a folder of the test's own, without jobs/). */
  const typed = (args: string[], cwd: string) => {
    assertBuilt();
    return spawnSync(process.execPath, [BIN, ...args], {
      cwd,
      env: pipeline.env,
      encoding: 'utf8',
      timeout: 30_000,
    });
  };

  it('`worker --jobs` of a folder that is not there is refused as `schedule` refuses it', () => {
    const missing = join(pipeline.dir, 'nothere');
    for (const command of ['worker', 'schedule']) {
      const result = typed([command, '--jobs', missing], pipeline.dir);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`catalog-sync: --jobs ${missing}: no such folder (${missing})\n`);
    }
  });

  it('`worker --seller-slice 15` (no unit, read as 15 ms before) is refused with the fix', () => {
    const result = typed(['worker', '--seller-slice', '15'], pipeline.dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'catalog-sync: --seller-slice: 15 has no unit: give --seller-slice 15s (units: ms, s, m, h, d)\n',
    );
  });

  it('`schedule` away from jobs/ names the default and where it looked, not an option never typed', () => {
    const result = typed(['schedule'], pipeline.dir);

    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: no jobs folder at ${join(pipeline.dir, 'jobs')} (the default of --jobs: jobs/ in the current folder): cd into the folder that holds jobs/, or give --jobs DIR\n`,
    );
  });

  it('`run my file.csv`: too many arguments, and the path to quote when that is the cause', async () => {
    const source = await pipeline.csv('my file.csv', catalogRows(1));

    const result = await pipeline.cli(['run', join(pipeline.dir, 'my'), 'file.csv']);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: too many arguments for 'run'. Expected 1 argument but got 2. (a path with spaces must be quoted: "${source}")\n`,
    );
  });

  // The suite's Redis has no password unless TEST_REDIS_URL gives one: then there is nothing to see.
  it.skipIf(new URL(TEST_REDIS_URL).password !== '')(
    "a password given to a Redis without one: said once, in the log's format, not by ioredis per connection",
    async () => {
      const withPassword = new URL(TEST_REDIS_URL);
      withPassword.password = 'not-needed';
      const source = await pipeline.csv('catalog.csv', catalogRows(2));

      // Spawned, not spawnSync: the child's requests go to this process's sandbox.
      const child = pipeline.spawn(['run', source, '--redis-url', withPassword.toString()], {
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      });

      expect((await child.exited).code).toBe(0);
      expect(child.stderr()).not.toContain('[WARN]');
      const lines = child
        .stderr()
        .split('\n')
        .filter((line) => line.includes('password'));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toMatchObject({
        level: 40,
        msg: expect.stringMatching(
          /^Redis at redis:\/\/:\*\*\*@.* needs no password, but --redis-url gives one/,
        ),
      });
    },
  );
});
