/**
 * Format characters that take no room on screen: zero-width spaces and joiners, the word joiner,
 * a byte order mark, a soft hyphen, direction marks. An ERP or a copy from a web page leaves them in
 * cells; `String.prototype.trim` removes none of them but the byte order mark. A cell of only these
 * looks empty to the seller, and a key with one at its edge looks like the key without it.
 */
const NAMES: ReadonlyMap<number, string> = new Map([
  [0x00ad, 'soft hyphen'],
  [0x180e, 'Mongolian vowel separator'],
  [0x200b, 'zero width space'],
  [0x200c, 'zero width non-joiner'],
  [0x200d, 'zero width joiner'],
  [0x200e, 'left-to-right mark'],
  [0x200f, 'right-to-left mark'],
  [0x202a, 'left-to-right embedding'],
  [0x202b, 'right-to-left embedding'],
  [0x202c, 'pop directional formatting'],
  [0x202d, 'left-to-right override'],
  [0x202e, 'right-to-left override'],
  [0x2060, 'word joiner'],
  [0x2061, 'function application'],
  [0x2062, 'invisible times'],
  [0x2063, 'invisible separator'],
  [0x2064, 'invisible plus'],
  [0x2066, 'left-to-right isolate'],
  [0x2067, 'right-to-left isolate'],
  [0x2068, 'first strong isolate'],
  [0x2069, 'pop directional isolate'],
  [0xfeff, 'byte order mark'],
]);

/** The lowest of them: text starting below it (all ASCII, most of Latin-1) is told at one look. */
const LOWEST = 0x00ad;
const BLANK_OR_INVISIBLE = /^[\s\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]*$/;

function isInvisible(code: number): boolean {
  return code >= LOWEST && NAMES.has(code);
}

/** Text that shows nothing: empty, spaces, or those characters only. */
export function isBlankText(text: string): boolean {
  const trimmed = text.trim();
  return trimmed === '' || (trimmed.charCodeAt(0) >= LOWEST && BLANK_OR_INVISIBLE.test(trimmed));
}

/**
 * A key cell holding text that shows nothing (a lone `\u200b`): no key, as a blank cell. A blank
 * one is not: it is no key already. One look at the first character for any other key.
 */
export function isInvisibleKey(key: string): boolean {
  return key !== '' && isInvisible(key.charCodeAt(0)) && BLANK_OR_INVISIBLE.test(key);
}

/**
 * Why a key with such a character at its start or end (`\u200bSKU-1`) is refused, or undefined.
 * It is not the key it looks like: taken as written, it finds no product of the key the seller
 * sees (`SKU-1`), and that one would be created a second time; taken without the character, a
 * product created under the key as written before (by a version of this tool that took it so)
 * would be. Refused, neither happens, and the seller removes the character once. Inside a key one is left alone: a joiner is
 * part of words in some scripts. Two looks per key (first and last character) for any other key.
 */
export function invisibleKeyReason(field: string, key: string): string | undefined {
  const first = key.charCodeAt(0);
  const last = key.charCodeAt(key.length - 1);
  const code = isInvisible(first) ? first : isInvisible(last) ? last : undefined;
  if (code === undefined) return undefined;
  const where = code === first ? 'starts' : 'ends';
  return `${field} "${shown(key)}" ${where} with an invisible character (${codePoint(code)} ${NAMES.get(code)}): it is not the key it looks like; remove the character from the cell`;
}

/** The key with each such character written as its escape (`\u200b`), so that a message shows it. */
function shown(key: string): string {
  let out = '';
  for (const char of key) {
    const code = char.charCodeAt(0);
    out += isInvisible(code) ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
