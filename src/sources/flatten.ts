import { MAX_NESTING } from '../defaults.js';
import type { SourceRecord } from '../interfaces.js';
import { namedValues } from '../named-values.js';

/** A value nested deeper than `MAX_NESTING`: its record is invalid (never a stack overflow). */
export class TooDeepError extends Error {
  override name = 'TooDeepError';
  constructor() {
    super(`nested deeper than ${MAX_NESTING} levels`);
  }
}

/**
 * A JSON item as flat string values, the shape every source yields. Numbers and booleans as text;
 * null is absent ("leave as it is"); a nested object becomes dotted keys (`price.amount`), also
 * inside lists. A list's items are kept as a list (`lists`: a list field gets them item by item, a
 * `,` inside one included) and, for a text field, joined with `|` in `values` (the way CSV exports
 * write several images in one cell). The item is level 1; a value nested deeper than `MAX_NESTING`
 * throws `TooDeepError`.
 */
export function flattenItem(item: Record<string, unknown>): Pick<SourceRecord, 'values' | 'lists'> {
  const parts = new Map<string, string[]>();
  const listed = new Set<string>();
  collect(item, '', parts, listed, 1, false);
  const values = namedValues();
  for (const [key, list] of parts) values[key] = list.join('|');
  if (listed.size === 0) return { values };
  const lists = namedValues<string[]>();
  for (const key of listed) lists[key] = parts.get(key) ?? [];
  return { values, lists };
}

/** `inList`: the value lies in an array: its key's value is a list (`listed`). */
function collect(
  value: unknown,
  key: string,
  parts: Map<string, string[]>,
  listed: Set<string>,
  depth: number,
  inList: boolean,
): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'object' && depth > MAX_NESTING) throw new TooDeepError();
  if (Array.isArray(value)) {
    if (value.length === 0 && key && !parts.has(key)) {
      parts.set(key, []);
      listed.add(key);
    }
    for (const element of value) collect(element, key, parts, listed, depth + 1, true);
    return;
  }
  if (typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      collect(inner, key ? `${key}.${name}` : name, parts, listed, depth + 1, inList);
    }
    return;
  }
  const list = parts.get(key);
  if (list) {
    list.push(String(value));
    // Two values under one key (`{"a.b": 1, "a": {"b": 2}}`): a list too.
    listed.add(key);
  } else parts.set(key, [String(value)]);
  if (inList) listed.add(key);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether JSON text nests objects and arrays deeper than `limit` (the outer value is level 1),
 * checked before `JSON.parse` builds it: a line of a million `[` must not become a million arrays.
 * Text with fewer brackets than that is answered at once, without a scan.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let brackets = 0;
  for (const open of ['{', '[']) {
    for (let at = text.indexOf(open); at !== -1 && brackets <= limit; at = text.indexOf(open, at + 1)) {
      brackets++;
    }
  }
  if (brackets <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x7b || char === 0x5b) {
      if (++depth > limit) return true;
    } else if (char === 0x7d || char === 0x5d) depth--;
  }
  return false;
}
