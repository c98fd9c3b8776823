import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';
import { UsageError } from './usage-error.js';

/**
 * Refuses, on `program` and every command under it, an option given an empty value: Commander
 * takes `--report ""` as given, and the commands read an empty value as no value at all, so a cron
 * line's `--report "$REPORT"` with the variable unset lost its report without a word (`--match-by ""`
 * matched by sku, `--base-url ""` fell back to SELLER_API_BASE_URL, `schedule --jobs ""` read the
 * working folder). One place, before any option's own parser: every command and option alike,
 * those added later too. Only an empty value: `--delimiter ' '` is its parser's to judge.
 */
export function refuseEmptyValues(program: Command): Command {
  for (const option of program.options) {
    if (!option.required && !option.optional) continue;
    const flag = option.long ?? option.name();
    const value = option.flags.split(' ').pop() ?? '<value>';
    // Prepended: Commander's own listener (registered when the option was added) runs the parser.
    // A Command is an EventEmitter, which its type declarations leave out.
    (program as unknown as EventEmitter).prependListener(`option:${option.name()}`, (given: unknown) => {
      if (given !== '') return;
      throw new UsageError(
        `${flag} was given an empty value (an unset variable?): it takes a ${value}; give one, or leave ${flag} out`,
      );
    });
  }
  for (const command of program.commands) refuseEmptyValues(command);
  return program;
}
