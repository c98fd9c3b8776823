import { describe, expect, it } from 'vitest';
import { SecretForms } from '../../../src/secret-forms.js';
import { credentialValues } from '../../../src/sources/stores/credentials.js';
import { withStoreMessage } from '../../../src/sources/stores/woocommerce/answer-lines.js';

/** A secret with what URL-encoding and PHP's JSON change: `+`, `/`, `=`, `&`. */
const SECRET = 'cs_a+b/c=d&e_0123456789';
const KEY = 'ck_0123456789abcdef';

describe("a store's credentials in the text of its answers", () => {
  const secrets = new SecretForms(
    credentialValues('woocommerce', { WOO_CONSUMER_KEY: KEY, WOO_CONSUMER_SECRET: SECRET }, undefined),
  );

  it.each([
    ['as sent', SECRET],
    ['URL-encoded', encodeURIComponent(SECRET)],
    [
      'URL-encoded in lower-case hex',
      encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    ],
    ['with PHP escaped slashes', SECRET.replaceAll('/', '\\/')],
    ['as the Basic header value', Buffer.from(`${KEY}:${SECRET}`).toString('base64')],
  ])('%s: replaced', (_how, form) => {
    expect(secrets.redact(`refused ${form}.`)).toBe('refused [redacted].');
  });

  it('a JSON body in \\u escapes is redacted in the strings it parses to, keys and names included', () => {
    const escaped = [...KEY].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const body = `{"code":"bad_${escaped}","message":"key ${escaped} refused"}`;
    expect(body).not.toContain(KEY);

    expect(withStoreMessage('w: answered 400', body, secrets)).toBe(
      'w: answered 400: "key [redacted] refused" (bad_[redacted])',
    );
    expect(secrets.redactParsed({ [KEY]: [KEY, 1] })).toEqual({ '[redacted]': ['[redacted]', 1] });
  });

  it('a long message is cut after the credentials are replaced: no part of one is left', () => {
    const body = JSON.stringify({ message: `${'x'.repeat(150)} ${SECRET}`, code: 'c' });
    const line = withStoreMessage('w', body, secrets);
    expect(line).not.toMatch(/cs_a/);
  });

  it("an error leaving the reader keeps its class, its message and stack redacted; another NAME's values are read", () => {
    const error = new TypeError(`bad ${SECRET}`);
    expect(secrets.scrub(error)).toBe(error);
    expect(error.message).toBe('bad [redacted]');
    expect(error.stack).not.toContain(SECRET);
    expect(credentialValues('shopify', { SHOPIFY_ACCESS_TOKEN_EU: 'shpat_1' }, 'EU')).toEqual(['shpat_1']);
    expect(credentialValues('shopify', { SHOPIFY_ACCESS_TOKEN_EU: 'shpat_1' }, 'eu-bad')).toEqual([]);
  });
});
