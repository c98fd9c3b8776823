import { countOf } from '../count-words.js';
import { connectionWords } from './connection-words.js';
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
 * that has none of cron's variables.
 */
export function approveLine(
  run: Pick<RunRecord, 'id' | 'revertedAt' | 'approveDuplicates' | 'baseUrl' | 'allowInsecure' | 'keysFile'>,
  c: Held,
): string | null {
  if (run.revertedAt !== undefined) return null;
  // The held line gives the way on (a mapping file): approving would make a second product of each.
  if (c.held > 0 && run.approveDuplicates)
    return `  approve   not this one: it would create a second product of each held row (the held line says what to run instead)`;
  const command = `catalog-sync approve ${run.id} ${connectionWords(run)}`;
  if (c.held > 0) return `  approve   ${command}   (sends the held writes; --rows 3,7 for some)`;
  if (c.deactivateHeld > 0) return `  approve   ${command}   (sends the held deactivations)`;
  return null;
}

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
