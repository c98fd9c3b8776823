/**
 * Text quoted from outside (a source's header or values, an API answer, what Redis holds) must not
 * drive the terminal it is printed on: an `ESC]0;…BEL` retitles the window, `ESC[2J` clears it, a
 * CR overwrites the line before. These helpers show such characters as visible escapes instead.
 */

/** C0 controls but tab and newline, DEL, and C1 controls (ESC is C0 0x1b; CSI is also C1 0x9b). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** The same, newline included: for text that must stay on one line. */
const CONTROL_OR_NEWLINE = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

function escapeCode(char: string): string {
  return `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
}

/**
 * `text` with every control character but tab and newline written as `\xHH`:
 * `"\x1b]0;evil\x07"` prints as the eleven visible characters `\x1b]0;evil\x07`.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, escapeCode);
}

/** As terminalSafe, and a newline too is shown as `\x0a`: for one-line messages. */
export function terminalSafeLine(text: string): string {
  return text.replace(CONTROL_OR_NEWLINE, escapeCode);
}

/**
 * JSON text (`JSON.stringify`'s, pino's) with DEL and C1 controls written as `\u00HH`, which JSON
 * reads back as the same characters; JSON itself already escapes C0. ASCII-safe for a terminal.
 */
export function jsonTerminalSafe(json: string): string {
  return json.replace(/[\x7f-\x9f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Text from outside shown in a message: made terminal-safe on one line, and cut at `max` characters. */
export function quoteForMessage(text: string, max = 120): string {
  const safe = terminalSafeLine(text);
  return safe.length > max ? `${safe.slice(0, max - 1)}…` : safe;
}
