import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';

/** A user mistake is one line on stderr, never a stack trace. */
function expectOneLineError(stderr: string, naming: string | RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(naming);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('`run` exit codes', () => {
  describe('when every row settles', () => {
    const pipeline = usePipeline();

    it('exits 0', async () => {
      const result = await pipeline.cli(['run', await pipeline.csv('ok.csv', catalogRows(5))]);

      expect(result.code).toBe(0);
    });
  });

  describe('when a row is invalid', () => {
    const pipeline = usePipeline();

    it('exits 1, sends the other rows and reports the bad one with its reason', async () => {
      const rows = [
        ...catalogRows(2),
        { sku: 'BAD', name: 'Bad price', price: '12,3.4' },
        ...catalogRows(2, 3),
      ];
      const report = join(pipeline.dir, 'report.csv');

      const result = await pipeline.cli(['run', await pipeline.csv('bad.csv', rows), '--report', report]);

      expect(result.code).toBe(1);
      expect(result.stdout).toContain('rows      5: 4 created, 0 updated, 0 unchanged, 1 invalid, 0 failed');
      expect(pipeline.products()).toHaveLength(4);
      expect(parseCsv(await pipeline.readText('report.csv'))[2]).toMatchObject({
        row: '3',
        key: 'BAD',
        action: 'invalid',
        status: 'failed',
        error: expect.stringContaining('price'),
      });
    });
  });

  describe('when the API refuses a row with 400', () => {
    const pipeline = usePipeline({ acceptFields: ['sku', 'name', 'price'] });

    it('exits 1 and reports the API reason on that row only', async () => {
      // Blank cells are not sent, so only the row with a colour carries the field the API refuses.
      const rows = catalogRows(4).map((row) => ({ ...row, colour: '' }));
      rows[1]!.colour = 'red';
      const report = join(pipeline.dir, 'report.csv');

      const result = await pipeline.cli(['run', await pipeline.csv('extra.csv', rows), '--report', report]);

      expect(result.code).toBe(1);
      expect(result.stdout).toContain('rows      4: 3 created, 0 updated, 0 unchanged, 0 invalid, 1 failed');
      const lines = parseCsv(await pipeline.readText('report.csv'));
      expect(lines[1]).toMatchObject({ row: '2', action: 'create', status: 'failed' });
      expect(lines[1]?.error).toMatch(/colour/);
      expect(lines.filter((line) => line.status === 'ok')).toHaveLength(3);
      expect(pipeline.sandbox.stats().byStatus['400']).toBe(1);
    });

    it('does not retry a 400', async () => {
      const rows = catalogRows(1).map((row) => ({ ...row, colour: 'blue' }));

      await pipeline.cli(['run', await pipeline.csv('extra.csv', rows)]);

      expect(pipeline.sandbox.stats().byRoute['POST /products']).toBe(1);
    });
  });

  describe('on a usage or configuration error', () => {
    const pipeline = usePipeline();

    it('exits 2 with one line when the source cannot be read', async () => {
      const missing = join(pipeline.dir, 'no-such-file.csv');

      const result = await pipeline.cli(['run', missing]);

      expect(result.code).toBe(2);
      expectOneLineError(result.stderr, /no-such-file\.csv/);
      expect(pipeline.sandbox.stats().total).toBe(0);
    });

    it('exits 2 with one line naming --concurrency when it is 0', async () => {
      const result = await pipeline.cli([
        'run',
        await pipeline.csv('ok.csv', catalogRows(1)),
        '--concurrency',
        '0',
      ]);

      expect(result.code).toBe(2);
      expectOneLineError(result.stderr, /--concurrency/);
      expect(pipeline.sandbox.stats().total).toBe(0);
    });

    it('exits 2 with one line naming the Redis when Redis is unreachable', async () => {
      const source = await pipeline.csv('ok.csv', catalogRows(1));

      const result = await pipeline.cli(['run', source], { REDIS_URL: 'redis://127.0.0.1:1' });

      expect(result.code).toBe(2);
      expectOneLineError(result.stderr, /Redis is not reachable at redis:\/\/127\.0\.0\.1:1/);
      expect(pipeline.sandbox.stats().total).toBe(0);
    });

    it('exits 2 with one line for a misspelt option, not the whole help', async () => {
      const source = await pipeline.csv('ok.csv', catalogRows(1));

      const result = await pipeline.cli(['run', source, '--concurency', '4']);

      expect(result.code).toBe(2);
      expectOneLineError(
        result.stderr,
        "catalog-sync: unknown option '--concurency' (Did you mean --concurrency?) (--help lists the options)",
      );
      expect(pipeline.sandbox.stats().total).toBe(0);
    });

    it("a mistyped choice names the one meant (a job file's preset: does too), else the help", async () => {
      const source = await pipeline.csv('ok.csv', catalogRows(1));

      const typo = await pipeline.cli(['run', source, '--preset', 'shopfy']);
      const far = await pipeline.cli(['run', source, '--preset', 'spreadsheet']);

      expect(typo.code).toBe(2);
      expectOneLineError(
        typo.stderr,
        "catalog-sync: option '--preset <name>' argument 'shopfy' is invalid. Allowed choices are generic, shopify, woocommerce, etsy, amazon, ebay, magento, google-merchant, prestashop, shopware, bigcommerce. (did you mean shopify?)",
      );
      expect(far.code).toBe(2);
      expect(far.stderr).toMatch(/argument 'spreadsheet' is invalid\. .* \(--help lists the options\)\n$/);
      expect(pipeline.sandbox.stats().total).toBe(0);
    });

    it.each([['products'], ['orders']])(
      '%s export: a misspelt option is one line and exit 2 too',
      async (noun) => {
        const result = await pipeline.cli([noun, 'export', '--outt', 'x.csv']);

        expect(result.code).toBe(2);
        expectOneLineError(result.stderr, /^catalog-sync: unknown option '--outt' \(Did you mean --out\?\)/);
      },
    );

    it('exits 2 when the key variable is not set, without sending anything', async () => {
      const source = await pipeline.csv('ok.csv', catalogRows(1));

      const result = await pipeline.cli(['run', source], { SELLER_API_KEY: '' });

      expect(result.code).toBe(2);
      expectOneLineError(result.stderr, /SELLER_API_KEY/);
    });

    it.each([
      ['a folder', (dir: string) => dir, /is a directory: give a file name$/],
      [
        'the source',
        (_dir: string, source: string) => source,
        /is the source being read: the report would overwrite it$/,
      ],
      [
        'a path under a file',
        (_dir: string, source: string) => join(source, 'r.csv'),
        /cannot be written \(ENOTDIR\)$/,
      ],
    ])('exits 2 with one line before any request when --report is %s', async (_what, reportOf, naming) => {
      const source = await pipeline.csv('ok.csv', catalogRows(3));
      const before = await readFile(source, 'utf8');

      const result = await pipeline.cli(['run', source, '--report', reportOf(pipeline.dir, source)]);

      expect(result.code).toBe(2);
      expectOneLineError(result.stderr, naming);
      expect(pipeline.sandbox.stats().total).toBe(0);
      expect(await readFile(source, 'utf8')).toBe(before);
    });

    // access(W_OK) says yes to root for any path: the check opens the file, so it holds for root too.
    it.runIf(existsSync('/proc/self'))(
      'exits 2 with one line before any request when --report is a file no one can make (/proc)',
      async () => {
        const source = await pipeline.csv('ok.csv', catalogRows(3));

        const result = await pipeline.cli(['run', source, '--report', '/proc/catalog-sync-none.csv']);

        expect(result.code).toBe(2);
        expectOneLineError(
          result.stderr,
          /^catalog-sync: --report \/proc\/catalog-sync-none\.csv: cannot be written \((ENOENT|EACCES)\)$/,
        );
        expect(pipeline.sandbox.stats().total).toBe(0);
      },
    );
  });
});
