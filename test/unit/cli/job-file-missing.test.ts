import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyJob, parseJob } from '../../../src/cli/job-file.js';
import type { RunFlags } from '../../../src/cli/run-flags.js';
import { addRunOptions } from '../../../src/cli/run-options.js';
import { UsageError } from '../../../src/cli/usage-error.js';

const PATH = '/srv/jobs/j.yml';

function missingOf(line: string): unknown {
  const command = addRunOptions(new Command('run').argument('[source]').exitOverride(), 'run');
  command.parse([], { from: 'user' });
  const job = parseJob(`source: a.csv\n${line}\n`, PATH);
  return applyJob(command, command.opts<RunFlags>(), job, PATH, {}).flags.missing;
}

describe("a job file's missing:", () => {
  it.each([['missing: {quantity: 0}'], ['missing: "quantity=0"'], ['missing: quantity=0']])(
    '%s: the same values as --missing quantity=0',
    (line) => {
      expect(missingOf(line)).toEqual({ quantity: 0 });
    },
  );

  it('the flag\'s form with two fields: "quantity=0,status=draft"', () => {
    expect(missingOf('missing: "quantity=0,status=draft"')).toEqual({ quantity: 0, status: 'draft' });
  });

  it.each([['missing: "quantity"'], ['missing: [quantity]'], ['missing: 0']])(
    '%s: one line saying the forms it takes',
    (line) => {
      expect(() => parseJob(`source: a.csv\n${line}\n`, PATH)).toThrow(
        new UsageError(
          'j.yml: missing: takes field: value pairs, e.g. missing: {quantity: 0} (or the flag\'s form, missing: "quantity=0")',
        ),
      );
    },
  );

  it.each([
    ['missing: {price: 0}', 'price=0 would put a product gone from the source on sale for nothing'],
    ['missing: "quantity=0,sku=GONE"', "sku is a product's key, which runs find it by"],
    ['missing: {status: bogus}', 'status=bogus is not a status that takes a product off sale'],
    ['missing: {quantity: -1}', 'quantity=-1 is below 0'],
  ])('%s: one line saying why the value is refused', (line, why) => {
    expect(() => parseJob(`source: a.csv\n${line}\n`, PATH)).toThrow(`j.yml: missing: ${why}`);
  });
});
