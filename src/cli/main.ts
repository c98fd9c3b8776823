import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { commander } from '../cjs-packages.js';
import { applyKeysFile } from '../keys-file.js';
import { projectRoot } from '../project-root.js';
import { holdSecrets } from '../secret-forms.js';
import { loadedKeys } from '../secret-text.js';
import { storeCredentialsIn } from '../sources/stores/credentials.js';
import { terminalSafe, terminalSafeLine } from '../terminal-safe.js';
import { refuseEmptyValues } from './empty-values.js';
import { ExitCode } from './exit-codes.js';
import { nearestName } from './nearest-name.js';
import { writePreRunWarning } from './pre-run-warning.js';
import type { CliIo, RegisterCommand } from './program.js';
import { spacedPathHint } from './spaced-path.js';
import { unknownVariableLines } from './unknown-variables.js';
import { UsageError } from './usage-error.js';

const packageJson = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
  version: string;
};

/**
 * Each command's module, in the order `--help` lists them. A command's module is loaded only when
 * that command runs: loading all of them (BullMQ, the dashboard, the sandbox server, the exports…)
 * took about 0.3 s of every start, `status` and `ping` included (BENCHMARKS.md, "Issue 12").
 */
const COMMANDS: ReadonlyArray<readonly [name: string, load: () => Promise<RegisterCommand>]> = [
  ['run', async () => (await import('./commands/run.js')).registerRun],
  ['import', async () => (await import('./commands/import.js')).registerImport],
  ['worker', async () => (await import('./commands/worker.js')).registerWorker],
  ['status', async () => (await import('./commands/status.js')).registerStatus],
  ['report', async () => (await import('./commands/report.js')).registerReport],
  ['ping', async () => (await import('./commands/ping.js')).registerPing],
  ['resume', async () => (await import('./commands/resume.js')).registerResume],
  ['revert', async () => (await import('./commands/revert.js')).registerRevert],
  ['approve', async () => (await import('./commands/approve.js')).registerApprove],
  ['cancel', async () => (await import('./commands/cancel.js')).registerCancel],
  ['schedule', async () => (await import('./commands/schedule.js')).registerSchedule],
  ['dashboard', async () => (await import('./commands/dashboard.js')).registerDashboard],
  ['orders', async () => (await import('./commands/orders.js')).registerOrders],
  ['products', async () => (await import('./commands/products.js')).registerProducts],
  ['sandbox', async () => (await import('./commands/sandbox.js')).registerSandbox],
  ['demo', async () => (await import('./commands/demo.js')).registerDemo],
];

/**
 * The commands to register for `argv`: the one it names, or every one when it names none (`--help`,
 * `help run`, a mistyped name, which Commander answers with the names it knows); none for `--version`.
 * The program itself takes no option with a value, so the first word not starting with `-` is
 * the command.
 */
export function commandsFor(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  // `--version` alone needs no command at all.
  if (args.length > 0 && args.every((arg) => arg === '-V' || arg === '--version')) return [];
  const named = args.find((arg) => !arg.startsWith('-'));
  const all = COMMANDS.map(([name]) => name);
  return named !== undefined && all.includes(named) ? [named] : all;
}

/**
 * Loads the modules of the commands `argv` may run, as main does. A process that times `main` in
 * itself (the benches) loads them first, as it loaded every command before they were lazy.
 */
export async function registrations(argv: readonly string[]): Promise<RegisterCommand[]> {
  const wanted = new Set(commandsFor(argv));
  return Promise.all(COMMANDS.filter(([name]) => wanted.has(name)).map(([, load]) => load()));
}

/** The program for `argv`, with the commands it may run (commandsFor). */
export async function buildProgram(io: CliIo, argv: readonly string[]): Promise<Command> {
  const program = new (commander().Command)('catalog-sync')
    .description(
      'Syncs a seller catalog (CSV, JSON or feed) into the marketplace Seller API v1, through BullMQ.',
    )
    .version(packageJson.version)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      // Commander's errors quote what was typed; only text, never a control sequence, reaches the terminal.
      writeErr: (s) => io.stderr.write(terminalSafe(s)),
      // A mistyped option is one line, as every usage error (exit 2, README: Exit codes), not the whole
      // help in
      // cron's mail: commander's "error: …" and its "(Did you mean …?)" joined, and where to look.
      outputError: (s, write) => write(`catalog-sync: ${commanderLine(s, argv.slice(2))}\n`),
    });

  for (const register of await registrations(argv)) register(program, io);
  // `--report ""` (a cron line's unset variable) is refused, never read as the option left out.
  refuseEmptyValues(program);
  // `--keys-file` (worker and the commands that read a key): its keys join io.env before the action.
  program.hook('preAction', async (_program, action) => {
    // A mistyped CATALOG_SYNC_ variable is said, never refused (a newer version's must not stop this one).
    for (const line of unknownVariableLines(io.env)) writePreRunWarning(io, line);
    const loaded = await applyKeysFile(io, action.opts<{ keysFile?: string }>().keysFile);
    if (loaded) io.keysFile = loaded;
    // Every key (a keys file's too) and store credential this process holds: no error text it keeps
    // (a row's reason, a log line) quotes one of them, whichever request it answered (secret-forms.ts).
    holdSecrets([...loadedKeys(io.env), ...storeCredentialsIn(io.env)]);
  });
  return program;
}

/**
 * Commander's error as one line, with where to look: the commands for a mistyped command, else the
 * options; for too many arguments, the path with spaces left unquoted when that is the cause.
 */
function commanderLine(error: string, words: readonly string[]): string {
  const line = error
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  const spaced = /^too many arguments/.test(line) ? spacedPathHint(words, isFile) : null;
  if (spaced) return `${line} (${spaced})`;
  const meant = meantChoice(line);
  if (meant) return `${line} (did you mean ${meant}?)`;
  return `${line} (--help lists the ${/^unknown command/.test(line) ? 'commands' : 'options'})`;
}

/** The choice a mistyped value of an option with choices was meant to be (`--preset shopfy`), or null. */
function meantChoice(line: string): string | null {
  const refused = /argument '([^']*)' is invalid\. Allowed choices are (.+)\.$/.exec(line);
  if (!refused) return null;
  return nearestName(refused[1] as string, (refused[2] as string).split(', '));
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Runs the CLI and resolves to the exit code; never throws for a user mistake. */
export async function main(argv: string[], io?: Partial<CliIo>): Promise<number> {
  const fullIo: CliIo = {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    exitCode: ExitCode.ok,
    ...io,
  };
  try {
    const program = await buildProgram(fullIo, argv);
    await program.parseAsync(argv);
    return fullIo.exitCode;
  } catch (error) {
    if (error instanceof commander().CommanderError) {
      // --help and --version end here too, with exit code 0.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof UsageError) {
      // The one-line error printer: messages quote sources, job files, API answers and Redis.
      fullIo.stderr.write(`catalog-sync: ${terminalSafeLine(error.message)}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
