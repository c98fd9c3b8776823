import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, writeCsv } from '../integration/support/catalog.js';
import { usePipeline } from '../integration/support/pipeline.js';
import { withRedis } from '../integration/support/redis-prefix.js';

/**
 * Issue 32, point 1: a job file named the keys file as its source, and the key went to stderr (the
 * match field's "fields:" list), to Redis and to `report --failed-only`. A job file may not name a
 * file its owner alone may read: the keys file (mode 600 by rule) is always one.
 */
describe('a job file never reads a private file (the keys file among them)', () => {
  const pipeline = usePipeline();
  const SECRET = 'sk_live_Secret1234567890';

  async function project(jobText: string): Promise<{ job: string; dir: string }> {
    const dir = join(pipeline.dir, 'shop');
    await mkdir(join(dir, 'jobs'), { recursive: true });
    const job = join(dir, 'jobs', 'nightly.yml');
    await writeFile(job, jobText, 'utf8');
    return { job, dir };
  }

  async function keysUnderPrefix(): Promise<string[]> {
    return withRedis(async (redis) => redis.keys(`${pipeline.prefix}:*`));
  }

  it.each([
    ['named by --keys-file too', true],
    ['not named by --keys-file', false],
  ])(
    'source: keys.env (%s) is one line, exit 2: no key in stderr, no run, no request',
    async (_how, named) => {
      const { job, dir } = await project('source: keys.env\ndryRun: true\n');
      const keys = join(dir, 'keys.env');
      await writeFile(keys, `SELLER_API_KEY_ACME=${SECRET}\nSELLER_API_KEY_SHOP=${SECRET}b\n`, 'utf8');
      await chmod(keys, 0o600);

      const result = await pipeline.cli(['run', '--job', job, ...(named ? ['--keys-file', keys] : [])]);

      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^catalog-sync: nightly\.yml: source: keys\.env is a private file \(mode 600/),
      ]);
      expect(result.stderr + result.stdout).not.toContain('sk_live');
      expect(pipeline.sandbox.stats().total).toBe(0);
      expect(await keysUnderPrefix()).toEqual([]);
    },
  );

  it('a catalog of mode 600 is refused too; named on the command line, it is read', async () => {
    const { job, dir } = await project('source: private.csv\ndryRun: true\n');
    const path = await writeCsv(dir, 'private.csv', catalogRows(2));
    await chmod(path, 0o600);

    const refused = await pipeline.cli(['run', '--job', job]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('nightly.yml: source: private.csv is a private file (mode 600'),
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);

    // The operator's own choice: the command line's source wins over the job's, and is trusted.
    const named = await pipeline.cli(['run', '--job', job, path]);
    expect(named.code, named.stderr).toBe(0);
  });

  it('a mapping file of mode 600 is refused as the source is', async () => {
    const { job, dir } = await project('source: catalog.csv\nmapping: map.yml\ndryRun: true\n');
    await writeCsv(dir, 'catalog.csv', catalogRows(2));
    await writeFile(join(dir, 'map.yml'), 'fields:\n  sku: sku\n  name: name\n', 'utf8');
    await chmod(join(dir, 'map.yml'), 0o600);

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nightly.yml: mapping: map.yml is a private file');
  });

  it('a source whose header is a NAME=key line, named by the operator, is refused without echoing it', async () => {
    // Not a job file's doing: the operator's typo. The match field's message lists the fields, but
    // not one that holds `=`: that is a keys or .env line, not a column.
    const path = join(pipeline.dir, 'settings.env');
    await writeFile(path, `SELLER_API_KEY_ACME=${SECRET}\nSELLER_API_KEY_SHOP=${SECRET}b\n`, 'utf8');

    const result = await pipeline.cli(['run', path, '--dry-run']);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining('(fields: 1 not shown: holding "=")'),
    ]);
    expect(result.stderr).not.toContain('sk_live');
  });

  it.each([
    ['.env', '.env'],
    ['a file in a hidden folder', '.git/config'],
  ])('a hidden source (%s) readable by all is refused, its text nowhere', async (_what, source) => {
    const { job, dir } = await project(`source: ${source}\ndryRun: true\n`);
    await mkdir(join(dir, '.git'), { recursive: true });
    await writeFile(join(dir, source), `REDIS_PASSWORD=${SECRET}\n`, { mode: 0o644 });

    const result = await pipeline.cli(['run', '--job', job]);

    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/nightly\.yml: source: \S+ is a hidden file or in a hidden folder/),
    ]);
    expect(result.stdout + result.stderr).not.toContain(SECRET);
    expect(await keysUnderPrefix()).toEqual([]);
  });
});
