import { countOf } from '../count-words.js';
import type { RevertResult } from '../revert/revert-run.js';
import { ExitCode } from './exit-codes.js';
import type { CliIo } from './program.js';

// The lines of a `revert` that stopped before its end (interrupted, or the seller's daily limit).

/** `interrupted (SIGINT): run R: 5 products put back, 35 left; …`: what an interrupted revert did. */
export function revertInterruptedLine(signal: string, runId: string, result: RevertResult): string {
  const put = result.products.filter((p) => p.result === 'put').length;
  const left = result.products.filter((p) => p.result === 'not-sent').length;
  return (
    `catalog-sync: interrupted (${signal}): run ${runId}: ${countOf(put, 'product')} put back, ${left} left; ` +
    `\`catalog-sync revert ${runId}\` again finishes it\n`
  );
}

/** A dry run of a seller paused on its daily limit: nothing read, exit 4. */
export function dryRunPausedLine(io: CliIo, runId: string, until: number): number {
  io.stderr.write(
    `catalog-sync: the seller is paused on its daily limit: nothing was read; re-run \`catalog-sync revert ${runId} --dry-run\` after the reset (${new Date(until).toISOString()})\n`,
  );
  return ExitCode.pausedDailyLimit;
}

/** The daily limit met (a 429, or the seller paused on it): one line, exit 4; `progress` says how far it got. */
export function dailyLimitLine(
  io: CliIo,
  runId: string,
  until: number,
  progress = 'before anything was sent',
): number {
  io.stderr.write(
    `catalog-sync: the daily limit was reached ${progress}: re-run \`catalog-sync revert ${runId}\` after the reset (${new Date(until).toISOString()}); it puts back only what is left\n`,
  );
  return ExitCode.pausedDailyLimit;
}
