import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyJob, parseJob } from '../../src/cli/job-file.js';
import type { RunFlags } from '../../src/cli/run-flags.js';
import { addRunOptions } from '../../src/cli/run-options.js';
import { UsageError } from '../../src/cli/usage-error.js';

function parse(args: string[]): { command: Command; flags: RunFlags } {
  const command = addRunOptions(new Command('run').argument('[source]').exitOverride(), 'run');
  command.parse(args, { from: 'user' });
  return { command, flags: command.opts<RunFlags>() };
}

describe('--price-decimals N (the decimals of the currency)', () => {
  it.each([
    ['0', 0],
    ['2', 2],
    ['3', 3],
    ['6', 6],
    [' 3 ', 3],
  ])('takes %j', (value, n) => {
    expect(parse(['--price-decimals', value]).flags.priceDecimals).toBe(n);
  });

  it.each(['7', '-1', '2.5', 'two', '', '1e1', '0x2', '99'])(
    'refuses %j in one line naming the option',
    (value) => {
      const parsing = () => parse(['--price-decimals', value]);
      expect(parsing).toThrow(UsageError);
      expect(parsing).toThrow(
        `--price-decimals takes a whole number from 0 to 6 (the decimals of the currency's smallest unit, e.g. 2 for cents), not "${value}"`,
      );
    },
  );

  it('a job file sets priceDecimals (a number or its text); the flag still wins', () => {
    for (const text of ['priceDecimals: 3', 'priceDecimals: "0"']) {
      const job = parseJob(`source: a.csv\n${text}\n`, '/srv/jobs/nightly.yml');
      const fromJob = parse([]);
      const expected = text.endsWith('3') ? 3 : 0;
      expect(
        applyJob(fromJob.command, fromJob.flags, job, '/srv/jobs/nightly.yml', {}).flags.priceDecimals,
      ).toBe(expected);
      const overridden = parse(['--price-decimals', '2']);
      expect(
        applyJob(overridden.command, overridden.flags, job, '/srv/jobs/nightly.yml', {}).flags.priceDecimals,
      ).toBe(2);
    }
  });

  it.each(['priceDecimals: 7', 'priceDecimals: 2.5', 'priceDecimals: cents', 'priceDecimals: -1'])(
    'a job file with %s is refused in one line naming it',
    (line) => {
      expect(() => parseJob(`source: a.csv\n${line}\n`, '/srv/jobs/nightly.yml')).toThrow(
        new UsageError(
          'nightly.yml: priceDecimals: must be a whole number from 0 to 6 (the decimals of the currency, e.g. 2 for cents)',
        ),
      );
    },
  );
});
