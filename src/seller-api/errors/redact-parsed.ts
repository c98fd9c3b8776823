import { redact } from './one-line.js';

/**
 * The key echoed by an API in JSON escapes (`"\u0073\u006b_live…"`) is not in the raw body as
 * written, so redacting the raw text misses it: it is found in the strings the body parses to.
 * Only a body with an escape (or the key itself) can hide or hold it, so others are not walked.
 */
export function mayHoldSecret(text: string, secret: string | undefined): secret is string {
  return secret !== undefined && secret !== '' && (text.includes('\\') || text.includes(secret));
}

/** A parsed JSON value with `secret` replaced in every string, property names included (in place). */
export function redactParsed(value: unknown, secret: string): unknown {
  return redactIn(value, secret, { found: false });
}

function redactIn(value: unknown, secret: string, seen: { found: boolean }): unknown {
  if (typeof value === 'string') {
    if (!value.includes(secret)) return value;
    seen.found = true;
    return redact(value, secret);
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactIn(value[i], secret, seen);
    return value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const object = value as Record<string, unknown>;
  for (const name of Object.keys(object)) {
    const redacted = redactIn(object[name], secret, seen);
    if (name.includes(secret)) {
      seen.found = true;
      delete object[name];
      object[redact(name, secret)] = redacted;
    } else object[name] = redacted;
  }
  return object;
}

/**
 * A body as an error keeps it: the key replaced in the raw text (a body that is not JSON), and a
 * JSON body that still held it in escapes written again from its redacted strings.
 */
export function redactBody(text: string, secret: string | undefined): string {
  const raw = redact(text, secret);
  if (!mayHoldSecret(raw, secret) || !/^\s*[[{"]/.test(raw)) return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
  const seen = { found: false };
  const redacted = redactIn(parsed, secret, seen);
  return seen.found ? JSON.stringify(redacted) : raw;
}
