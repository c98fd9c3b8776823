import { MAX_REASON_LENGTH } from '../../defaults.js';
import { terminalSafeLine } from '../../terminal-safe.js';

/**
 * Collapses whitespace (newlines included) to single spaces, shows any other control character as a
 * visible `\xHH` (an API answer must not drive a terminal), and trims to `max` characters.
 */
export function oneLine(text: string, max = MAX_REASON_LENGTH): string {
  const flat = terminalSafeLine(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}
