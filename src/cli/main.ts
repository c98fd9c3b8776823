import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { projectRoot } from '../project-root.js';
import { registerNotYet } from './commands/not-yet.js';
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
      writeErr: (s) => io.stderr.write(s),
    });

  registerNotYet(program, io, 'run <source>', 'enqueue one import run, process it here, print a summary');
  registerNotYet(program, io, 'import <source>', 'enqueue one import run for the workers; prints its run id');
  registerNotYet(program, io, 'worker', 'long-running consumer of all runs');
  registerNotYet(program, io, 'status [run-id]', "a run's state and counts (latest run when no id)");
  registerNotYet(program, io, 'report <run-id>', 'the per-row result file of a run');
  registerNotYet(program, io, 'ping', 'check the API key (GET /ping): exit 0 valid, 3 rejected');
  registerNotYet(program, io, 'resume', 'lift a pause left by a rejected key (401), once the key is fixed');
  registerNotYet(program, io, 'schedule', 'register the scheduled imports of jobs/ with the workers');
  registerNotYet(program, io, 'dashboard', 'the queues and runs in a browser');
  registerNotYet(program, io, 'orders', "export the seller's orders, every page, as CSV or JSON lines");
  registerNotYet(program, io, 'sandbox', 'serve the sandbox Seller API on loopback');
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
      fullIo.stderr.write(`catalog-sync: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
