import { countOf } from '../count-words.js';
import { type HintConnection, hintConnectionWords } from './connection-words.js';
import type { RunRecord } from './run-store.js';

/** What a held run still holds, as the summary and `status` count it. */
interface Held {
  /** Rows a guard held back. */
  held: number;
  /** `--missing` deactivations held back (with the run, or by `--max-missing`). */
  deactivateHeld: number;
}

/**
 * The `approve` line of a run holding writes, or null when `approve` would refuse it: a reverted
 * run (queue/approval.ts) or one holding nothing. `--rows` is named only while rows are held: a
 * held deactivation has no row number, and `--rows` of a run holding none is refused. The command
 * carries the run's base URL and keys file (connection-words.ts): it works as printed from a shell
 * that has none of cron's variables. A run read from Redis whose base URL this process does not
 * allow gets placeholders instead, and says whose values fill them: never the record's as a command.
 */
export function approveLine(
  run: Pick<RunRecord, 'id' | 'revertedAt' | 'approveDuplicates' | 'baseUrl' | 'keysFile'>,
  c: Held,
  connection: HintConnection,
): string | null {
  if (run.revertedAt !== undefined) return null;
  // The held line gives the way on (a mapping file): approving would make a second product of each.
  if (c.held > 0 && run.approveDuplicates)
    return `  approve   not this one: it would create a second product of each held row (the held line says what to run instead)`;
  const { words, fillIn } = hintConnectionWords(run, connection);
  const command = `catalog-sync approve ${run.id} ${words}`;
  const fill = fillIn ? FILL_IN : '';
  if (c.held > 0) return `  approve   ${command}   (sends the held writes; --rows 3,7 for some${fill})`;
  if (c.deactivateHeld > 0) return `  approve   ${command}   (sends the held deactivations${fill})`;
  return null;
}

/**
 * Said after placeholders: the values are the operator's own, as the command that made the run gave
 * them (a cron line's); the record's are shown by `status --json`, as information only.
 */
const FILL_IN =
  '; with the values of the command that made the run: its record in Redis is not vouched for here';

/**
 * `status` of a held run that was reverted since: what it held is never sent (`approve` refuses
 * it), and its held reason, which may name `approve`, no longer says what to do.
 */
export function revertedHeldText(c: Held): string {
  const held = [
    c.held > 0 ? countOf(c.held, 'row') : '',
    c.deactivateHeld > 0 ? countOf(c.deactivateHeld, 'deactivation') : '',
  ].filter(Boolean);
  const what = held.length > 0 ? `what it held (${held.join(', ')})` : 'what it held';
  return `held, then reverted: ${what} is not sent; run its source again to send what it should`;
}
