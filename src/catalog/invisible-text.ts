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
 * It is not the key it looks like, and the seller's file is the place to make it the one they see:
 * stripped here, the marketplace would get a SKU the seller's other systems (the ERP the file came
 * from, its order import) do not have, a change nobody made (docs/sources.md). Removing it from the
 * cell is safe: the clean row finds the product an earlier version made under the key as written
 * (sync/invisible-edge-keys.ts) and cleans its SKU, never making it again. Inside a key one is left
 * alone: a joiner is part of words in some scripts. Two looks per key (first and last character).
 */
export function invisibleKeyReason(field: string, key: string): string | undefined {
  const edge = invisibleEdge(key);
  if (edge === undefined) return undefined;
  return `${field} "${shownKey(key)}" ${edge.where} with an invisible character (${edge.code} ${edge.name}): it is not the key it looks like; remove the character from the cell (the product made under it is found then, and its ${field} cleaned)`;
}

/** The invisible character at a key's edge (its start's first): which, and where. */
export interface InvisibleEdge {
  /** `U+200B`. */
  code: string;
  /** `zero width space`. */
  name: string;
  where: 'starts' | 'ends';
}

/** The key's invisible edge character, or undefined (two looks for any key). */
export function invisibleEdge(key: string): InvisibleEdge | undefined {
  const first = key.charCodeAt(0);
  const last = key.charCodeAt(key.length - 1);
  const code = isInvisible(first) ? first : isInvisible(last) ? last : undefined;
  if (code === undefined) return undefined;
  return {
    code: codePoint(code),
    name: NAMES.get(code) as string,
    where: code === first ? 'starts' : 'ends',
  };
}

/** The key without the invisible characters at its edges (`\u200b\u2060SKU-1\u200b` → `SKU-1`). */
export function withoutInvisibleEdges(key: string): string {
  let start = 0;
  let end = key.length;
  while (start < end && isInvisible(key.charCodeAt(start))) start++;
  while (end > start && isInvisible(key.charCodeAt(end - 1))) end--;
  return key.slice(start, end);
}

/** Each key a product may have been made under that shows as `key`: one invisible character before or after it. */
export function invisibleEdgeForms(key: string): string[] {
  const forms: string[] = [];
  for (const code of NAMES.keys()) {
    const char = String.fromCharCode(code);
    forms.push(char + key, key + char);
  }
  return forms;
}

/**
 * The key with each such character written as its escape (`\u200b`), so that a message shows it;
 * white space other than a space too (a no-break space, a tab: `\u00a0`), which shows as one.
 */
export function shownKey(key: string): string {
  return escaped(key, true);
}

/**
 * A name a message quotes (a header's column, a field the source gives) with each such character
 * written as its escape: a header cell `\u200bsku` printed as it is reads `sku`.
 */
export function escapedName(name: string): string {
  return escaped(name, false);
}

/**
 * A name a message points the user to, with the invisible character at its edge named as a key's is
 * (invisibleKeyReason): `"\u200bsku", which starts with an invisible character (U+200B zero width
 * space)`. The nearest field to `sku` being `sku` to the eye, the message must say why it is not.
 */
export function shownName(name: string): string {
  const edge = invisibleEdge(name);
  if (edge === undefined) return escapedName(name);
  return `"${escapedName(name)}", which ${edge.where} with an invisible character (${edge.code} ${edge.name})`;
}

function escaped(text: string, spaces: boolean): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    const hidden = isInvisible(code) || (spaces && code !== 0x20 && OTHER_SPACE.test(char));
    out += hidden ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return out;
}

const OTHER_SPACE = /\s/;

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
