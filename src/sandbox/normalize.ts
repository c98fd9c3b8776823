/**
 * The sandbox's own form of what it is sent, with `normalize` on: real marketplaces store a cleaned-up
 * copy of a product and show that copy ever after, so a client must not expect its own values back.
 * Pure functions; the routes apply them on create and on update, never to seeded or hand-edited data
 * (those are stored as given, so tests can set up odd data).
 */

export interface Tag {
  name: string;
}

/** `tags` as a normalizing sandbox takes them: an array of strings, or one comma-separated string. */
export type TagsInput = string | readonly string[];

/** `name` trimmed, every inner run of whitespace (tabs, newlines, no-break spaces) made one space. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/**
 * Rounded to cents, half away from zero, as the decimal the number stands for: 1.005 is 1.01 and
 * 1.5699999999999998 is 1.57, where `Math.round(x * 100) / 100` would see the binary value
 * (1.00499…) and give 1. The shortest decimal that reads back as `value` (what String gives) is
 * rounded with integer arithmetic, so no float error enters.
 */
export function roundToCents(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  if (Number.isInteger(value)) return value === 0 ? 0 : value;
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`${value} is not a decimal number`);
  const [, sign, whole = '', fraction = '', exponent = '0'] = match;
  // |value| = digits × 10^(exponent − fraction.length), so |value| × 100 = digits × 10^shift.
  const digits = BigInt(whole + fraction);
  const shift = Number(exponent) - fraction.length + 2;
  let cents: bigint;
  if (shift >= 0) {
    cents = digits * 10n ** BigInt(shift);
  } else {
    const divisor = 10n ** BigInt(-shift);
    cents = digits / divisor;
    if ((digits % divisor) * 2n >= divisor) cents += 1n;
  }
  // cents and 100 are exact doubles, so the quotient is the double nearest the decimal: 1.01, not 1.0100…1.
  const rounded = Number(cents) / 100;
  return sign === '-' && rounded !== 0 ? -rounded : rounded;
}

export function isTagsInput(value: unknown): value is TagsInput {
  return typeof value === 'string' || (Array.isArray(value) && value.every((tag) => typeof tag === 'string'));
}

/** Tags as objects, each name trimmed, empty ones dropped; a string is split on commas first. */
export function normalizeTags(tags: TagsInput): Tag[] {
  const names = typeof tags === 'string' ? tags.split(',') : tags;
  return names
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .map((name) => ({ name }));
}

/**
 * The stored form of a validated body: `name`, `price` and `tags` normalized, other fields as they are.
 * A field of an unexpected type is left alone; validation, which knows the rules in force, refuses it.
 */
export function normalizeProduct(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const stored: Record<string, unknown> = { ...fields };
  if (typeof fields.name === 'string') stored.name = normalizeName(fields.name);
  if (typeof fields.price === 'number') stored.price = roundToCents(fields.price);
  if (isTagsInput(fields.tags)) stored.tags = normalizeTags(fields.tags);
  return stored;
}
