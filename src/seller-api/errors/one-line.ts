import { terminalSafeLine } from '../../terminal-safe.js';

/** The longest reason we keep: enough for a validation message, short enough for a report cell. */
export const MAX_REASON_LENGTH = 300;

/**
 * Collapses whitespace (newlines included) to single spaces, shows any other control character as a
 * visible `\xHH` (an API answer must not drive a terminal), and trims to `max` characters.
 */
export function oneLine(text: string, max = MAX_REASON_LENGTH): string {
  const flat = terminalSafeLine(text.replace(/\s+/g, ' ').trim());
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

/** Replaces every occurrence of `secret` (the API key) so it cannot leak through an echoed body. */
export function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}

/** An error keeps at most this much of a body: enough to diagnose, not a whole list page in memory. */
export const MAX_BODY_LENGTH = 10_000;
