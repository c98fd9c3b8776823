import { SecretForms } from '../../secret-forms.js';

/**
 * The API key kept out of what its answers give, by the one redaction a store's credentials get too
 * (secret-forms.ts): as sent, URL-encoded, JSON-escaped (`\/`), and in the strings a body parses to
 * (`\u…` escapes). Its forms are built per call: a few strings, and only where an answer is read.
 */
export function keyForms(secret: string | undefined): SecretForms {
  return new SecretForms([secret]);
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
