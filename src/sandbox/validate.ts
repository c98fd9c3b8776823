/**
 * Validation of product bodies, as the sandbox enforces it.
 *
 * The spec leaves required fields and validation limits "not shown" (sections 2.1 and 8.3), so these
 * limits are our choice, meant to be as strict as a plausible live API:
 * - the body is a JSON object; `id` is never accepted in it (the id travels in the query, spec 4.1 rule 1);
 * - when the sandbox runs with accepted fields, any other field is refused (spec 2.1: "accepts only
 *   fields that the live products endpoint accepts");
 * - `name`: a string, not blank, at most 255 characters;
 * - `price`: a JSON number (not a string), from 0 to 1e9, at most two decimals;
 * - `quantity`: a JSON integer, 0 or more;
 * - any other field: a string of at most 10,000 characters, a finite number, a boolean, or an array of
 *   at most 1,000 such strings; `null` is refused (there is no way to clear a field);
 * - a create needs `name` and `price`; an update (partial) needs neither, and changes only what it carries;
 * - when the sandbox runs with update fields, an update carrying any other field is refused, naming every
 *   such field at once (a client fixing its PUT should not discover them one 400 at a time);
 * - when the sandbox normalizes (normalize.ts), `price` may have any number of decimals (it is stored
 *   rounded to cents) and `tags` must be an array of strings or one comma-separated string.
 */

import { isTagsInput } from './normalize.js';

export const MAX_NAME_LENGTH = 255;
export const MAX_PRICE = 1e9;
export const MAX_TEXT_LENGTH = 10_000;
export const MAX_ARRAY_LENGTH = 1_000;
export const REQUIRED_ON_CREATE = ['name', 'price'] as const;

export type StoredValue = string | number | boolean | string[];

export type ValidationResult =
  | { ok: true; fields: Record<string, StoredValue> }
  | { ok: false; code: string; field?: string; fields?: string[]; message: string };

export interface ValidationRules {
  /** null or undefined: every field name is accepted. */
  acceptFields?: readonly string[] | null;
  /** null or undefined: an update may carry any field. */
  updateFields?: readonly string[] | null;
  /** The values are stored in the sandbox's own form, so some are taken looser or stricter. */
  normalize?: boolean;
}

/** `mode` 'create' also requires the fields of REQUIRED_ON_CREATE. */
export function validateProduct(
  body: unknown,
  mode: 'create' | 'update',
  rules: ValidationRules = {},
): ValidationResult {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, code: 'invalid_body', message: 'the request body must be a JSON object' };
  }
  if (mode === 'update' && rules.updateFields) {
    const allowed = rules.updateFields;
    // `id` keeps its own, more useful refusal below.
    const refused = Object.keys(body).filter((field) => field !== 'id' && !allowed.includes(field));
    if (refused.length > 0) return notUpdatable(refused);
  }
  const fields: Record<string, StoredValue> = {};
  for (const [field, value] of Object.entries(body)) {
    const problem = fieldProblem(field, value, rules);
    if (problem) return { ok: false, code: problem.code, field, message: `${field}: ${problem.message}` };
    fields[field] = value as StoredValue;
  }
  if (mode === 'create') {
    const missing = REQUIRED_ON_CREATE.find((field) => !(field in fields));
    if (missing) {
      return { ok: false, code: 'missing_field', field: missing, message: `${missing}: required on create` };
    }
  }
  return { ok: true, fields };
}

function fieldProblem(
  field: string,
  value: unknown,
  rules: ValidationRules,
): { code: string; message: string } | null {
  if (field === 'id') return { code: 'unknown_field', message: 'not accepted in the body; pass it as ?id=' };
  if (rules.acceptFields && !rules.acceptFields.includes(field)) {
    return { code: 'unknown_field', message: 'not accepted by this endpoint' };
  }
  const message = valueProblem(field, value, rules.normalize === true);
  return message ? { code: 'invalid_field', message } : null;
}

function notUpdatable(refused: string[]): ValidationResult {
  const message = `${refused.join(', ')}: not accepted in an update`;
  // `field` only when it is the whole story; `fields` always lists every refused one.
  const field = refused.length === 1 ? { field: refused[0] } : {};
  return { ok: false, code: 'not_updatable', ...field, fields: refused, message };
}

function valueProblem(field: string, value: unknown, normalize: boolean): string | null {
  switch (field) {
    case 'name':
      if (typeof value !== 'string' || value.trim() === '') return 'must be a non-empty string';
      return value.length > MAX_NAME_LENGTH ? `must be at most ${MAX_NAME_LENGTH} characters` : null;
    case 'price':
      if (normalize) return isPriceToRound(value) ? null : `must be a number from 0 to ${MAX_PRICE}`;
      return isPrice(value) ? null : `must be a number from 0 to ${MAX_PRICE} with at most two decimals`;
    case 'quantity':
      return Number.isSafeInteger(value) && (value as number) >= 0 ? null : 'must be a non-negative integer';
    case 'tags':
      if (normalize && !isTagsInput(value)) return 'must be an array of strings or a comma-separated string';
      return otherValueProblem(value);
    default:
      return otherValueProblem(value);
  }
}

function isPriceToRound(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= MAX_PRICE;
}

function isPrice(value: unknown): boolean {
  if (!isPriceToRound(value)) return false;
  // Within [0, 1e9] String() never uses an exponent for a value with two decimals or fewer, so a
  // value with more decimals (or a tiny one printed as 1e-7) fails this pattern.
  return /^\d+(\.\d{1,2})?$/.test(String(value));
}

function otherValueProblem(value: unknown): string | null {
  if (typeof value === 'string') {
    return value.length > MAX_TEXT_LENGTH ? `must be at most ${MAX_TEXT_LENGTH} characters` : null;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'must be a finite number';
  if (typeof value === 'boolean') return null;
  if (Array.isArray(value)) {
    if (value.length > MAX_ARRAY_LENGTH) return `must hold at most ${MAX_ARRAY_LENGTH} items`;
    const allShortStrings = value.every((item) => typeof item === 'string' && item.length <= MAX_TEXT_LENGTH);
    return allShortStrings ? null : `must be an array of strings of at most ${MAX_TEXT_LENGTH} characters`;
  }
  return 'must be a string, a number, a boolean or an array of strings';
}
