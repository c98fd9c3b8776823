import { MAX_NESTING } from '../defaults.js';
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
 * null is absent ("leave as it is"); a list is joined with `|` (the way CSV exports write several
 * images in one cell); a nested object becomes dotted keys (`price.amount`), also inside lists.
 * The item is level 1; a value nested deeper than `MAX_NESTING` throws `TooDeepError`.
 */
export function flattenItem(item: Record<string, unknown>): Record<string, string> {
  const parts = new Map<string, string[]>();
  collect(item, '', parts, 1);
  const values = namedValues();
  for (const [key, list] of parts) values[key] = list.join('|');
  return values;
}

function collect(value: unknown, key: string, parts: Map<string, string[]>, depth: number): void {
  if (value === null || value === undefined) return;
  if (typeof value === 'object' && depth > MAX_NESTING) throw new TooDeepError();
  if (Array.isArray(value)) {
    if (value.length === 0 && key && !parts.has(key)) parts.set(key, []);
    for (const element of value) collect(element, key, parts, depth + 1);
    return;
  }
  if (typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      collect(inner, key ? `${key}.${name}` : name, parts, depth + 1);
    }
    return;
  }
  const list = parts.get(key);
  if (list) list.push(String(value));
  else parts.set(key, [String(value)]);
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
