import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadJob, parseJob } from '../../../src/cli/job-file.js';
import { UsageError } from '../../../src/cli/usage-error.js';

function refusal(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a UsageError');
}

/** A key a job file does not take: the one meant, as the CLI says for a mistyped option. */
describe("a job file's unknown key", () => {
  const PATH = '/srv/jobs/n1.yml';

  it('a typo: the nearest key', () => {
    expect(refusal(() => parseJob('source: a.csv\nmaxPriceChnage: 50%\n', PATH))).toBe(
      'n1.yml: maxPriceChnage: not a job file key (did you mean maxPriceChange?)',
    );
  });

  it.each([['max-price-change'], ['max_price_change'], ['MaxPriceChange']])(
    '%s: the keys are the options in camelCase',
    (key) => {
      expect(refusal(() => parseJob(`source: a.csv\n${key}: 50%\n`, PATH))).toBe(
        `n1.yml: ${key}: not a job file key: keys are the options in camelCase (maxPriceChange)`,
      );
    },
  );

  it('nothing near: the key alone, and where the keys are listed', () => {
    expect(refusal(() => parseJob('source: a.csv\nfrobnicate: 1\n', PATH))).toBe(
      'n1.yml: frobnicate: not a job file key (the keys are the options of run in camelCase: catalog-sync run --help)',
    );
  });
});

describe('--job given the file name of a job in jobs/', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-job-name-'));
    await mkdir(join(dir, 'jobs'));
    await writeFile(join(dir, 'jobs', 'n1.yml'), 'source: a.csv\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('--job n1.yml: says that --job n1 names it', async () => {
    await expect(loadJob('n1.yml', dir)).rejects.toThrow(
      new UsageError(
        `--job n1.yml: no job file (looked for n1.yml in ${dir}); jobs/n1.yml is there: --job n1`,
      ),
    );
  });

  it('--job n1 still finds it', async () => {
    expect((await loadJob('n1', dir)).path).toBe(join(dir, 'jobs', 'n1.yml'));
  });
});

/** A mistyped `--job`: the job of the folder looked in that was meant, as for a mistyped key. */
describe('--job naming no job file', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'catalog-sync-job-typo-'));
    await mkdir(join(dir, 'jobs'));
    await writeFile(join(dir, 'jobs', 'example-nightly.yml'), 'source: a.csv\n');
    await writeFile(join(dir, 'jobs', 'weekly.json'), '{"source": "a.csv"}\n');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const looked = (name: string, folder: string, file = name) =>
    `--job ${name}: no job file (looked for ${file}.yml, ${file}.yaml, ${file}.json in ${folder})`;

  it('a typo: the nearest job named', async () => {
    await expect(loadJob('example-nighlty', dir)).rejects.toThrow(
      new UsageError(`${looked('example-nighlty', join(dir, 'jobs'))}; did you mean --job example-nightly?`),
    );
    await expect(loadJob('weekyl', dir)).rejects.toThrow(
      new UsageError(`${looked('weekyl', join(dir, 'jobs'))}; did you mean --job weekly?`),
    );
  });

  it('a path: the nearest file of its folder, as a path', async () => {
    await expect(loadJob('jobs/example-nigthly', dir)).rejects.toThrow(
      new UsageError(
        `${looked('jobs/example-nigthly', join(dir, 'jobs'), 'example-nigthly')}; did you mean --job jobs/example-nightly?`,
      ),
    );
  });

  it('nothing near: the line as before', async () => {
    await expect(loadJob('monthly-export', dir)).rejects.toThrow(
      new UsageError(looked('monthly-export', join(dir, 'jobs'))),
    );
  });
});

/** A key with a value it does not take: one line naming the file, the key and what it takes. */
describe("a job file's key with a wrong value", () => {
  const PATH = '/srv/jobs/n1.yml';

  it.each([
    [
      'dailyBudget: lots',
      "n1.yml: dailyBudget: must be a whole number above 0 (the requests a day to spend of the seller's quota), as --daily-budget takes",
    ],
    [
      'dailyBudget: 0',
      "n1.yml: dailyBudget: must be a whole number above 0 (the requests a day to spend of the seller's quota), as --daily-budget takes",
    ],
    ['concurrency: 2.5', 'n1.yml: concurrency: must be a whole number from 1 to 256, as --concurrency takes'],
    ['incremental: yes', 'n1.yml: incremental: must be true or false'],
    ['fullReadAfter: 7', 'n1.yml: fullReadAfter: must be a duration such as 7d, 12h or 30m'],
    [
      'maxInvalid: true',
      'n1.yml: maxInvalid: must be a row count (e.g. 5) or a percentage up to 100% (e.g. 10%)',
    ],
    ['report: 3', 'n1.yml: report: must be text (in quotes when it looks like a number)'],
    ['only: both', 'n1.yml: only: must be one of create, update'],
  ])('%s', (line, message) => {
    expect(refusal(() => parseJob(`source: a.csv\n${line}\n`, PATH))).toBe(message);
  });

  it('preset: a typo names the preset meant, after the list', () => {
    expect(refusal(() => parseJob('source: a.csv\npreset: shopfy\n', PATH))).toMatch(
      /^n1\.yml: preset: must be one of generic, shopify, .*, as --preset takes \(did you mean shopify\?\)$/,
    );
    expect(refusal(() => parseJob('source: a.csv\npreset: xyz\n', PATH))).toMatch(/as --preset takes$/);
  });
});
