import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { TEST_REDIS_URL } from '../support/redis-prefix.js';

const PASSWORD = `pw-Rn4-${randomBytes(6).toString('hex')}`;

/**
 * A `run` whose Redis user lacks scripting is refused (NOPERM, exit 2) before it queues a row. Its
 * process could not settle the run it had made (ending it is a script too): it left a run `queued`,
 * and the second refused `run` left the first `ending early` with 0 rows for ever; the next `run` of
 * the source with the rights ended neither, so that `status` showed both waiting for ever. Refused
 * before the run is created, it leaves nothing behind, and the next run with the rights starts at once.
 */
describe('runs refused scripting by Redis', () => {
  const pipeline = usePipeline();
  const users: string[] = [];
  const admin = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });

  afterAll(async () => {
    if (users.length > 0) await admin.acl('DELUSER', ...users);
    admin.disconnect();
  });

  /** REDIS_URL of an ACL user named after the test's prefix, with `rules`. */
  async function aclUserEnv(suffix: string, rules: string[]): Promise<NodeJS.ProcessEnv> {
    if (admin.status === 'wait') await admin.connect();
    const name = `${pipeline.prefix}-${suffix}`;
    users.push(name);
    expect(await admin.acl('SETUSER', name, 'reset', 'on', `>${PASSWORD}`, ...rules)).toBe('OK');
    const url = new URL(TEST_REDIS_URL);
    url.username = name;
    url.password = PASSWORD;
    return { REDIS_URL: url.toString(), LOG_LEVEL: 'warn' };
  }

  it('leave no run behind; the next run of the source with the rights starts at once, none left waiting', {
    timeout: 120_000,
  }, async () => {
    const keys = [`~${pipeline.prefix}:*`, '&*', '+@all'];
    const refused = await aclUserEnv('noscript', [...keys, '-@scripting']);
    const source = await pipeline.csv('small3.csv', catalogRows(3, 401));
    for (const attempt of ['first', 'second']) {
      const child = pipeline.spawn(['run', source], refused);
      const { code } = await child.exited;
      expect(code, `${attempt}: ${child.stderr()}`).toBe(2);
      expect(child.stderr(), attempt).toMatch(/NOPERM/);
    }
    const left = await pipeline.cli(['status', '--list', '--json']);
    expect(left.code, left.stderr).toBe(0);
    expect(JSON.parse(left.stdout), 'runs left by the refused processes').toEqual([]);

    const granted = await aclUserEnv('granted', keys);
    const started = Date.now();
    const child = pipeline.spawn(['run', source], granted);
    const { code } = await child.exited;
    expect(code, child.stderr()).toBe(0);
    // No reader's mark of a refused process watched (three beats), nor a claim stepped around.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(child.stderr()).not.toMatch(/reader's mark|stopped before its source/);
    const done = runIdOf(child.stdout());
    expect(
      pipeline
        .products()
        .map((product) => product.sku)
        .sort(),
    ).toEqual(
      catalogRows(3, 401)
        .map((row) => row.sku)
        .sort(),
    );

    const list = await pipeline.cli(['status', '--list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    const runs = JSON.parse(list.stdout) as Array<{ id: string; state: string }>;
    expect(
      runs.map((run) => [run.id, run.state]),
      JSON.stringify(runs),
    ).toEqual([[done, 'done']]);
  });
});
