import { SecretForms, secretsWith } from '../../secret-forms.js';

/** The last key's forms: every answer of a run is read with the same key (issue 31: no work per row). */
let last: { secret: string | undefined; forms: SecretForms } | null = null;

/**
 * The API key kept out of a successful answer once parsed (its `\u…` escapes undone): the key
 * alone, as every answer is looked at. Built once per key, not per answer.
 */
export function keyForms(secret: string | undefined): SecretForms {
  if (last === null || last.secret !== secret) last = { secret, forms: new SecretForms([secret]) };
  return last.forms;
}

/**
 * `text` of an error (its path, a header, the reason) with the key replaced in every form, and
 * every other secret the process holds (another seller's key, a store's credentials: a server or a
 * proxy may quote any of them), by the one redaction (secret-forms.ts).
 */
export function redact(text: string, secret: string | undefined): string {
  return secretsWith(secret).redact(text);
}

/**
 * A body as an error keeps it: the secrets (as for redact) replaced in the raw text (a body that is
 * not JSON), and a JSON body that still held one in escapes written again from its redacted strings.
 */
export function redactBody(text: string, secret: string | undefined): string {
  return secretsWith(secret).redactJsonText(text);
}
