import { CatalogConfigError } from '../catalog/errors.js';
import { redactHeld } from '../secret-forms.js';
import { SourceError } from '../sources/index.js';
import { quoteForMessage } from '../terminal-safe.js';
import { RunInterruptedError } from './producer-stops.js';

/** Long enough for any source message the tool writes; a quoted value past it is cut. */
const MAX_REASON = 300;

/**
 * Why a run's source was not read to the end, in one line for its record, `status --json` and its
 * webhook. A source's own message is the line the user sees too (it names the source without its
 * query, and holds no key: cut of every secret the process holds all the same); any other error's
 * message may quote anything, so only its kind is said.
 */
export function endedEarlyReason(error: unknown): string {
  if (
    error instanceof SourceError ||
    error instanceof CatalogConfigError ||
    error instanceof RunInterruptedError
  )
    return quoteForMessage(redactHeld(error.message), MAX_REASON);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)
    ? `the source could not be read to the end (${code})`
    : 'the source could not be read to the end';
}
