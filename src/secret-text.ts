import { MIN_HELD_LENGTH } from './secret-forms.js';
import { isKeyEnvAllowed, KEY_ENVS_VARIABLE } from './trust-rules.js';

/**
 * What a pasted secret (the Seller API key, a store's token or REST API keys) may not hold. Every
 * one of them is printable ASCII without spaces; a copy-paste from a mail or a document brings a
 * typographic quote, a line break or a space along. Sent, such a value is a header Node refuses
 * (ERR_INVALID_CHAR, a stack trace) or a 401 that says nothing of the cause: refused where it is
 * read instead, in words that never show the value.
 */

/** Typographic quotes and primes a word processor puts where " and ' were typed. */
const TYPOGRAPHIC_QUOTE = /[\u2018-\u201f\u2032\u2033\u00ab\u00bb]/;

/** Words for what `value` holds that no key or token has, or null when nothing. */
export function secretTextFault(value: string): string | null {
  if (/[\r\n]/.test(value)) return 'a line break';
  if (/\s/.test(value)) return 'a space or a tab';
  if (TYPOGRAPHIC_QUOTE.test(value)) return 'a typographic quote (” or ’, from a copy-paste)';
  if (/[^\x21-\x7e]/.test(value)) return 'a character that is not plain ASCII';
  return null;
}

/** `SELLER_API_KEY holds a line break, which no key has: set it again …`, or null when it is fine. */
export function secretTextRefusal(variable: string, value: string, what: string): string | null {
  const fault = secretTextFault(value);
  if (fault === null) return null;
  return `${variable} holds ${fault}, which no ${what} has: set it again, typed or copied from its source`;
}

/**
 * Every API key this process holds: the values of the variables that may hold one (SELLER_API_KEY,
 * SELLER_API_KEY_*, those CATALOG_SYNC_KEY_ENVS lists), a `--keys-file`'s among them once merged.
 */
export function loadedKeys(env: NodeJS.ProcessEnv): string[] {
  const listed = (env[KEY_ENVS_VARIABLE] ?? '').split(',').map((name) => name.trim());
  const keys = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    const key = value?.trim();
    if (key && key.length >= MIN_HELD_LENGTH && isKeyEnvAllowed(name, listed)) keys.add(key);
  }
  return [...keys];
}
