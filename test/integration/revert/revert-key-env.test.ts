import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import type { RunSpec } from '../../../src/runs/run-store.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_KEY, MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { nameAndPrice, RUN_ROWS, SEEDED } from './support.js';

/** cron's environment: no key variable, no base URL (the test's Redis and prefix stay). */
const CRON: NodeJS.ProcessEnv = { SELLER_API_KEY: undefined, SELLER_API_BASE_URL: undefined };

describe('`revert` reads the key from the variable the run was made with, as `approve` does', () => {
  const pipeline = usePipeline();

  /** The keys file of a cron line, and the options every command of it takes. */
  async function cronOptions(): Promise<{ file: string; options: string[] }> {
    const file = join(pipeline.dir, 'keys.env');
    await writeFile(file, `SELLER_API_KEY_A=${MAIN_KEY}\n`);
    await chmod(file, 0o600);
    return { file, options: ['--base-url', pipeline.sandbox.baseUrl, '--keys-file', file] };
  }

  /** A run made from cron with `--key-env SELLER_API_KEY_A`: two products updated. */
  async function cronRun(options: string[]): Promise<string> {
    pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);
    const source = await pipeline.csv('catalog.csv', RUN_ROWS);
    const result = await pipeline.cli(['run', source, '--key-env', 'SELLER_API_KEY_A', ...options], CRON);
    expect(result.code, result.stderr).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp, brass', price: 22.5 });
    return runIdOf(result.stdout);
  }

  it('from an empty environment, `revert <id> --base-url … --keys-file …` with no --key-env puts the values back', async () => {
    const { options } = await cronOptions();
    const runId = await cronRun(options);

    const result = await pipeline.cli(['revert', runId, ...options], CRON);

    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('reverted 2 products (3 fields)');
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 20 });
    expect(nameAndPrice(pipeline, 'MUG')).toEqual({ name: 'Mug', price: 5 });
    expect(result.stdout + result.stderr).not.toContain(MAIN_KEY);
  });

  it("the run's variable unset here: one line naming it and --key-env, exit 2, nothing sent", async () => {
    const { options } = await cronOptions();
    const runId = await cronRun(options);
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId, '--base-url', pipeline.sandbox.baseUrl], CRON);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `catalog-sync: SELLER_API_KEY_A is not set: run ${runId} was made with the key in it ` +
        '(set it, give it in --keys-file, or name another variable with --key-env)\n',
    );
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('--key-env still names another variable holding the key', async () => {
    const { options } = await cronOptions();
    const runId = await cronRun(options);

    const result = await pipeline.cli(['revert', runId, '--key-env', 'SELLER_API_KEY_NIGHT'], {
      ...CRON,
      SELLER_API_BASE_URL: pipeline.sandbox.baseUrl,
      SELLER_API_KEY_NIGHT: MAIN_KEY,
    });

    expect(result.code, result.stderr).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp', price: 20 });
  });

  it('a variable that Redis names and this environment does not allow is not read: one line, exit 2, nothing sent', async () => {
    const { options } = await cronOptions();
    const runId = await cronRun(options);
    // Whoever can write to Redis rewrites the run's record.
    await withRedis(async (redis) => {
      const key = new RedisKeys(pipeline.prefix).run(runId);
      const spec = JSON.parse((await redis.hget(key, 'spec')) as string) as RunSpec;
      await redis.hset(key, 'spec', JSON.stringify({ ...spec, keyEnv: 'DB_PASSWORD' }));
    });
    pipeline.sandbox.resetStats();

    const result = await pipeline.cli(['revert', runId, ...options], { ...CRON, DB_PASSWORD: MAIN_KEY });

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^catalog-sync: run ${runId} cannot be reverted here: DB_PASSWORD is not a key variable`),
      ),
    ]);
    expect(result.stderr).not.toContain(MAIN_KEY);
    expect(pipeline.sandbox.stats().total).toBe(0);
    expect(nameAndPrice(pipeline, 'LAMP')).toEqual({ name: 'Desk lamp, brass', price: 22.5 });
  });
});
