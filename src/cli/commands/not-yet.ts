import type { Command } from 'commander';
import type { CliIo } from '../program.js';
import { UsageError } from '../usage-error.js';

/** Commands of CONTRACT.md that a later issue fills in: listed in --help, and say so plainly when run. */
export function registerNotYet(program: Command, _io: CliIo, name: string, summary: string): void {
  program
    .command(name)
    .description(`${summary} (not implemented yet)`)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new UsageError(`${name.split(' ')[0]}: not implemented yet in this version`);
    });
}
