import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { applyJob, parseJob } from '../../src/cli/job-file.js';
import type { RunFlags } from '../../src/cli/run-flags.js';
import { addRunOptions } from '../../src/cli/run-options.js';
import { UsageError } from '../../src/cli/usage-error.js';

/** `--source-timeout`, `--allow-private-source`, `--max-record-bytes`: parsed from flags and job files. */
function parse(args: string[]): { command: Command; flags: RunFlags } {
  const command = addRunOptions(new Command('run').argument('[source]').exitOverride(), 'run');
  command.parse(args, { from: 'user' });
  return { command, flags: command.opts<RunFlags>() };
}

describe('the source options of run and import', () => {
  it('default to 30 s, refused, 8 MiB', () => {
    expect(parse([]).flags).toMatchObject({
      sourceTimeout: 30_000,
      allowPrivateSource: false,
      maxRecordBytes: 8 * 1024 * 1024,
    });
  });

  it.each([
    ['8MiB', 8 * 1024 * 1024],
    ['512KiB', 512 * 1024],
    ['1048576', 1_048_576],
    ['2gib', null],
    ['1GiB', 1024 ** 3],
    ['100', null],
    ['8MB', null],
    ['-1', null],
  ])('--max-record-bytes %s', (value, bytes) => {
    if (bytes === null) expect(() => parse(['--max-record-bytes', value])).toThrow(UsageError);
    else expect(parse(['--max-record-bytes', value]).flags.maxRecordBytes).toBe(bytes);
  });

  it.each([
    ['45s', 45_000],
    ['2m', 120_000],
    ['500ms', 500],
    ['10ms', null],
    ['soon', null],
  ])('--source-timeout %s', (value, ms) => {
    if (ms === null) expect(() => parse(['--source-timeout', value])).toThrow(UsageError);
    else expect(parse(['--source-timeout', value]).flags.sourceTimeout).toBe(ms);
  });

  it('a job file sets sourceTimeout and maxRecordBytes; flags still win', () => {
    const job = parseJob(
      'source: https://feeds.example.test/f.csv\nsourceTimeout: 2m\nmaxRecordBytes: 512KiB\n',
      '/srv/jobs/nightly.yml',
    );
    const fromJob = parse([]);
    expect(applyJob(fromJob.command, fromJob.flags, job, '/srv/jobs/nightly.yml', {}).flags).toMatchObject({
      sourceTimeout: 120_000,
      allowPrivateSource: false,
      maxRecordBytes: 512 * 1024,
    });
    const overridden = parse(['--source-timeout', '10s', '--max-record-bytes', '1MiB']);
    expect(
      applyJob(overridden.command, overridden.flags, job, '/srv/jobs/nightly.yml', {}).flags,
    ).toMatchObject({
      sourceTimeout: 10_000,
      maxRecordBytes: 1024 * 1024,
    });
  });

  it.each([
    ['sourceTimeout: 10ms', 'sourceTimeout: must be a duration such as 30s or 2m'],
    ['maxRecordBytes: 12XB', 'maxRecordBytes: must be a size from 1KiB to 1GiB'],
    ['maxRecordBytes: 100', 'maxRecordBytes: must be a size from 1KiB to 1GiB'],
    [
      'allowPrivateSource: true',
      'allowPrivateSource: a job file cannot lift a safety rule: pass --allow-private-source',
    ],
  ])('a job file with %s is refused in one line', (line, message) => {
    expect(() => parseJob(`source: a.csv\n${line}\n`, '/srv/jobs/nightly.yml')).toThrow(message);
  });
});

describe('a job file value left empty', () => {
  // (An empty `schedule` is refused by `schedule` itself: '"" is not a cron pattern'.)
  it.each(['preset', 'mapping', 'matchBy', 'report', 'baseUrl', 'delimiter', 'encoding'])(
    '%s: "" is refused in one line naming it, not run as if it were left out',
    (name) => {
      const run = () => parseJob(`source: a.csv\n${name}: ''\n`, '/srv/jobs/nightly.yml');
      expect(run).toThrow(UsageError);
      expect(run).toThrow(`nightly.yml: ${name}: is empty: give a value, or leave the line out`);
    },
  );
});
