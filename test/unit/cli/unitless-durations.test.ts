import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseJob } from '../../../src/cli/job-file.js';
import type { RunFlags } from '../../../src/cli/run-flags.js';
import { addRunOptions } from '../../../src/cli/run-options.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { unitlessLine } from '../../../src/duration.js';

/**
 * A duration option given a bare number is refused, one line naming the option and the fix: the
 * number was read as milliseconds (`--full-read-after 7` was 7 ms), a silent wrong answer.
 */
function runFlags(args: string[]): RunFlags {
  const command = addRunOptions(new Command('run').argument('[source]').exitOverride(), 'run');
  command.parse(args, { from: 'user' });
  return command.opts<RunFlags>();
}

function refusal(parse: () => unknown): string {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('a duration with no unit', () => {
  it.each([
    [
      '--full-read-after',
      '7',
      '--full-read-after: 7 has no unit: give --full-read-after 7d (units: ms, s, m, h, d)',
    ],
    [
      '--source-timeout',
      '30',
      '--source-timeout: 30 has no unit: give --source-timeout 30s (units: ms, s, m, h, d)',
    ],
    [
      '--source-timeout',
      '500',
      '--source-timeout: 500 has no unit: give --source-timeout 500s (units: ms, s, m, h, d)',
    ],
  ])('%s %s is refused, naming the fix', (option, value, line) => {
    expect(refusal(() => runFlags([option, value]))).toBe(line);
  });

  it('with a unit, as before', () => {
    expect(runFlags(['--full-read-after', '7d', '--source-timeout', '500ms'])).toMatchObject({
      fullReadAfter: 7 * 86_400_000,
      sourceTimeout: 500,
    });
  });

  it.each([
    ['fullReadAfter: "7"', 'nightly.yml: fullReadAfter: must be a duration such as 7d, 12h or 30m'],
    ['sourceTimeout: "30"', 'nightly.yml: sourceTimeout: must be a duration such as 30s or 2m'],
  ])('a job file with %s is refused in one line', (line, message) => {
    expect(refusal(() => parseJob(`source: a.csv\n${line}\n`, '/srv/jobs/nightly.yml'))).toBe(message);
  });

  it('unitlessLine says nothing of a value with a unit, or of one that is no number', () => {
    expect(unitlessLine('--since', '24h', 'h')).toBeNull();
    expect(unitlessLine('--since', 'soon', 'h')).toBeNull();
    expect(unitlessLine('--since', ' 24 ', 'h')).toBe(
      '--since: 24 has no unit: give --since 24h (units: ms, s, m, h, d)',
    );
  });
});
