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
