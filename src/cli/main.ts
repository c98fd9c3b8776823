import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { applyKeysFile } from '../keys-file.js';
import { projectRoot } from '../project-root.js';
import { terminalSafe, terminalSafeLine } from '../terminal-safe.js';
import { registerApprove } from './commands/approve.js';
import { registerCancel } from './commands/cancel.js';
import { registerDashboard } from './commands/dashboard.js';
import { registerDemo } from './commands/demo.js';
import { registerImport } from './commands/import.js';
import { registerOrders } from './commands/orders.js';
import { registerPing } from './commands/ping.js';
import { registerProducts } from './commands/products.js';
import { registerReport } from './commands/report.js';
import { registerResume } from './commands/resume.js';
import { registerRevert } from './commands/revert.js';
import { registerRun } from './commands/run.js';
import { registerSandbox } from './commands/sandbox.js';
import { registerSchedule } from './commands/schedule.js';
import { registerStatus } from './commands/status.js';
import { registerWorker } from './commands/worker.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './program.js';
import { UsageError } from './usage-error.js';

const packageJson = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as {
  version: string;
};

export function buildProgram(io: CliIo): Command {
  const program = new Command('catalog-sync')
    .description(
      'Syncs a seller catalog (CSV, JSON or feed) into the marketplace Seller API v1, through BullMQ.',
    )
    .version(packageJson.version)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      // Commander's errors quote what was typed; only text, never a control sequence, reaches the terminal.
      writeErr: (s) => io.stderr.write(terminalSafe(s)),
    });

  registerRun(program, io);
  registerImport(program, io);
  registerWorker(program, io);
  registerStatus(program, io);
  registerReport(program, io);
  registerPing(program, io);
  registerResume(program, io);
  registerRevert(program, io);
  registerApprove(program, io);
  registerCancel(program, io);
  registerSchedule(program, io);
  registerDashboard(program, io);
  registerOrders(program, io);
  registerProducts(program, io);
  registerSandbox(program, io);
  registerDemo(program, io);
  // `--keys-file` (worker and the commands that read a key): its keys join io.env before the action.
  program.hook('preAction', async (_program, action) => {
    await applyKeysFile(io, action.opts<{ keysFile?: string }>().keysFile);
  });
  return program;
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
  const program = buildProgram(fullIo);
  try {
    await program.parseAsync(argv);
    return fullIo.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
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
