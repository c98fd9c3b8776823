import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli/main.js';
import type { CliIo } from '../../../src/cli/program.js';
import { runCli } from '../../integration/support/cli.js';

/**
 * An option given an empty value (`--report "$REPORT"` in a cron line, the variable unset) is
 * refused in one line naming it, exit 2, on every command: never taken as "not given".
 * Nothing here reaches Redis, an API or a network: the refusal comes first.
 */
const ENV = {
  REDIS_URL: 'redis://127.0.0.1:1',
  SELLER_API_BASE_URL: 'http://127.0.0.1:1/api/v1',
  SELLER_API_KEY: 'sk_test',
};

/** The arguments each command needs besides its options (a run id, a source). */
const ARGUMENTS: Readonly<Record<string, string[]>> = {
  run: ['catalog.csv'],
  import: ['catalog.csv'],
  report: ['R1'],
  revert: ['R1'],
  approve: ['R1'],
  cancel: ['R1'],
};

const refusal = (flag: string, value: string) =>
  `catalog-sync: ${flag} was given an empty value (an unset variable?): it takes a ${value}; give one, or leave ${flag} out\n`;

describe('an empty option value', () => {
  it.each([
    ['--mapping', '<file>'],
    ['--report', '<file>'],
    ['--match-by', '<field>'],
    ['--base-url', '<url>'],
    ['--redis-url', '<url>'],
    ['--job', '<name>'],
    ['--notify', '<url>'],
    ['--seller', '<name>'],
  ])('run %s "" is refused in one line naming it, exit 2', async (flag, value) => {
    const result = await runCli(['run', 'catalog.csv', flag, ''], ENV);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(refusal(flag, value));
  });

  it('is refused written as --option= too', async () => {
    const result = await runCli(['run', 'catalog.csv', '--report='], ENV);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe(refusal('--report', '<file>'));
  });

  it('is refused for every option of every command that takes a value', async () => {
    const cases = await everyOptionWithAValue();
    expect(cases.length).toBeGreaterThan(60);
    const wrong: string[] = [];
    for (const { words, flag, value } of cases) {
      const result = await runCli([...words, ...(ARGUMENTS[words[0] ?? ''] ?? []), flag, ''], ENV);
      if (result.code !== 2 || result.stderr !== refusal(flag, value))
        wrong.push(`${words.join(' ')} ${flag} "": exit ${result.code}, ${JSON.stringify(result.stderr)}`);
    }
    expect(wrong).toEqual([]);
  }, 60_000);

  it('a value that is not empty is still the option parser’s to judge', async () => {
    const result = await runCli(['run', 'catalog.csv', '--delimiter', ' '], ENV);

    expect(result.code).toBe(2);
    expect(result.stderr).toBe('catalog-sync: --delimiter takes , ; tab or |, not " "\n');
  });
});

/**
 * A prober's finding: `status ''` (a cron line's `status "$RUN_ID"`, the variable unset) said `no run
 * yet: start one…` although runs exist, and `report ''` said `no run  in Redis`. An empty run id is
 * refused in one line, exit 2, as an empty option value is: never taken for the latest run.
 */
describe('an empty run id', () => {
  it.each([
    ['status', ', or leave it out for the latest run'],
    ['report', ''],
    ['approve', ''],
    ['revert', ''],
    ['cancel', ''],
  ])('%s "" is refused in one line, exit 2', async (command, optional) => {
    const result = await runCli([command, ''], ENV);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `catalog-sync: <run-id> was given an empty value (an unset variable?): it takes a run id; give one${optional}\n`,
    );
  });

  it('status "" --json too, before Redis is asked anything', async () => {
    const result = await runCli(['status', '', '--json'], ENV);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^catalog-sync: <run-id> was given an empty value/);
  });
});

/** Every command (and subcommand) as typed, with each of its options that takes a value. */
async function everyOptionWithAValue(): Promise<Array<{ words: string[]; flag: string; value: string }>> {
  const io: CliIo = {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: {},
    exitCode: 0,
  };
  const program = await buildProgram(io, ['node', 'catalog-sync', '--help']);
  const cases: Array<{ words: string[]; flag: string; value: string }> = [];
  const walk = (command: typeof program, words: string[]) => {
    for (const option of command.options) {
      if (!option.long || !(option.required || option.optional)) continue;
      cases.push({ words, flag: option.long, value: option.flags.split(' ').pop() ?? '' });
    }
    for (const sub of command.commands) walk(sub, [...words, sub.name()]);
  };
  for (const command of program.commands) walk(command, [command.name()]);
  return cases;
}
