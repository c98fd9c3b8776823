import { SecretForms } from '../../secret-forms.js';

/** The last key's forms: every answer of a run is read with the same key (issue 31: no work per row). */
let last: { secret: string | undefined; forms: SecretForms } | null = null;

/**
 * The API key kept out of what its answers give, by the one redaction a store's credentials get too
 * (secret-forms.ts): as sent, URL-encoded, JSON-escaped (`\/`), and in the strings a body parses to
 * (`\u…` escapes). Built once per key, not per answer.
 */
export function keyForms(secret: string | undefined): SecretForms {
  if (last === null || last.secret !== secret) last = { secret, forms: new SecretForms([secret]) };
  return last.forms;
}

/** `text` with the key, in every form, replaced so it cannot leak through an echoed body. */
export function redact(text: string, secret: string | undefined): string {
  return keyForms(secret).redact(text);
}

/**
 * A body as an error keeps it: the key replaced in the raw text (a body that is not JSON), and a
 * JSON body that still held it in escapes written again from its redacted strings.
 */
export function redactBody(text: string, secret: string | undefined): string {
  return keyForms(secret).redactJsonText(text);
}
