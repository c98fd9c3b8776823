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
  refuseEmptyRunId(program);
  for (const command of program.commands) refuseEmptyValues(command);
  return program;
}

/**
 * The same for a command's `<run-id>`: `status "$RUN_ID"` with the variable unset said `no run yet`
 * (the empty id taken for none), `report ""` `no run  in Redis`. Refused as its parser, before the
 * action asks Redis anything. Only the run id: an empty `[source]` already says `run needs a <source>`.
 */
function refuseEmptyRunId(command: Command): void {
  for (const argument of command.registeredArguments) {
    if (argument.name() !== 'run-id') continue;
    const leaveOut = argument.required ? '' : ', or leave it out for the latest run';
    const parse = argument.parseArg;
    argument.argParser((given: string, previous: unknown) => {
      if (given === '')
        throw new UsageError(
          `<run-id> was given an empty value (an unset variable?): it takes a run id; give one${leaveOut}`,
        );
      return parse ? parse(given, previous) : given;
    });
  }
}
