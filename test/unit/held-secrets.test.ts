import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { heldSecrets, holdSecrets, redactHeld, SecretForms, secretsWith } from '../../src/secret-forms.js';
import { errorFromResponse } from '../../src/seller-api/errors/from-response.js';
import { storeCredentialsIn } from '../../src/sources/stores/credentials.js';
import { reasonOf } from '../../src/sync/error-policy.js';

// Every secret a process loaded is held for all its texts (secret-forms.ts). Module state: each
// test holds values of its own, so their order does not matter.

/** `\u0073\u006b…`: each character as a JSON escape, inside a JSON string literal. */
function escaped(text: string): string {
  return [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}

describe('the secrets a process holds', () => {
  it('are cut from any text in every form: as written, URL-encoded (either hex case), with \\/', () => {
    const other = 'sk_live_OTHER/a+b=c';
    holdSecrets([other]);
    const encoded = encodeURIComponent(other);
    for (const form of [
      other,
      encoded,
      encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
      other.replaceAll('/', '\\/'),
    ])
      expect(redactHeld(`refused ${form}.`)).toBe('refused [redacted].');
  });

  it('a value too short to be a key is not held (it would blank out words); an empty text is as it is', () => {
    holdSecrets(['short', '  ', undefined]);
    expect(redactHeld('a short line')).toBe('a short line');
    expect(redactHeld('')).toBe('');
  });

  it('their forms are built once per set, again only when a new secret is held', () => {
    holdSecrets(['sk_live_SET_ONE_1']);
    const forms = heldSecrets();
    holdSecrets(['sk_live_SET_ONE_1']);
    expect(heldSecrets()).toBe(forms);
    holdSecrets(['sk_live_SET_TWO_2']);
    expect(heldSecrets()).not.toBe(forms);
    expect(redactHeld('sk_live_SET_ONE_1 sk_live_SET_TWO_2')).toBe('[redacted] [redacted]');
  });

  it("a client's own key is held with them; one too short to hold is cut from its own texts only", () => {
    holdSecrets(['sk_live_HELD_BEFORE']);
    expect(secretsWith('sk_live_OWN_KEY_3')).toBe(heldSecrets());
    expect(redactHeld('sk_live_OWN_KEY_3')).toBe('[redacted]');
    const short = secretsWith('k1');
    expect(short.redact('k1 sk_live_HELD_BEFORE')).toBe('[redacted] [redacted]');
    expect(secretsWith('k1')).toBe(short);
    expect(redactHeld('k1')).toBe('k1');
  });

  it("a Seller API error quoting another held secret, in a body's \\u escapes too, carries none of it", () => {
    const other = 'sk_live_SELLER_B_77';
    holdSecrets([other]);
    const body = `{"message":"header ${other}","errors":["escaped ${escaped(other)}"]}`;
    const error = errorFromResponse(
      { method: 'POST', path: `/products?k=${other}`, status: 422, headers: { 'x-echo': other }, body },
      { now: 0, dailyReset: '00:00', secret: 'sk_live_SELLER_A_11' },
    );
    expect(error.message).toContain('header [redacted]');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain(other);
  });

  it("a row's reason is cut before it is shortened: no part of a secret at the cut is left", () => {
    const other = 'sk_live_REASON_CUT_1234';
    holdSecrets([other]);
    expect(reasonOf(new Error(`refused:\n  ${other}`))).toBe('refused: [redacted]');
    const long = reasonOf(new Error(`${'x'.repeat(490)} ${other}`));
    expect(long).not.toContain('sk_live_R');
    expect(long.length).toBeLessThanOrEqual(500);
  });

  it('a log line quoting one has it cut, the line still JSON', () => {
    const other = 'sk_live_LOGGED_"q"_5';
    holdSecrets([other]);
    const stream = new PassThrough();
    let text = '';
    stream.on('data', (chunk) => (text += chunk));
    createLogger('info', stream).warn({ err: `answer quoted ${other}` }, `failed: ${other}`);
    const record = JSON.parse(text) as { err: string; msg: string };
    expect(record).toMatchObject({ err: 'answer quoted [redacted]', msg: 'failed: [redacted]' });
  });

  it("a store's credentials in the environment, each NAME's and each WooCommerce pair's Basic value", () => {
    const env = {
      SHOPIFY_ACCESS_TOKEN: 'shpat_0123456789',
      WOO_CONSUMER_KEY_EU: 'ck_eu_0123456789',
      WOO_CONSUMER_SECRET_EU: 'cs_eu_0123456789',
      WOO_CONSUMER_KEY: '',
      SELLER_API_KEY: 'sk_not_a_store_credential',
    };
    const basic = Buffer.from('ck_eu_0123456789:cs_eu_0123456789').toString('base64');
    expect(storeCredentialsIn(env).sort()).toEqual(
      ['shpat_0123456789', 'ck_eu_0123456789', 'cs_eu_0123456789', basic].sort(),
    );
  });

  it('many secrets are looked for in one pass: forms of 500 keys, a text with none, as it is', () => {
    const many = new SecretForms(Array.from({ length: 500 }, (_, i) => `sk_live_many_${i}_x/y`));
    const text = `POST /products: 422 ${'a'.repeat(400)}`;
    expect(many.redact(text)).toBe(text);
    expect(many.mayHold(text)).toBe(false);
    expect(many.redact('sk_live_many_499_x%2Fy and sk_live_many_1_x\\/y')).toBe('[redacted] and [redacted]');
  });
});

describe('a key echoed changed by a hostile API', () => {
  const KEY = 'sk_live_CaseEcho7319';
  const forms = new SecretForms([KEY]);

  it.each([
    ['upper-cased', KEY.toUpperCase()],
    ['lower-cased', KEY.toLowerCase()],
    ['in base64', Buffer.from(KEY).toString('base64')],
    ['in base64 without padding', Buffer.from(KEY).toString('base64').replace(/=+$/, '')],
    ['in URL-safe base64', Buffer.from(KEY).toString('base64url')],
  ])('%s, it is cut', (_how, echoed) => {
    const text = `invalid key: ${echoed} (see docs)`;
    expect(forms.redact(text)).toBe('invalid key: [redacted] (see docs)');
  });

  it('held for every text too', () => {
    holdSecrets(['sk_live_HeldEcho2846']);
    const echoed = Buffer.from('sk_live_HeldEcho2846').toString('base64');
    expect(redactHeld(`got ${echoed} and SK_LIVE_HELDECHO2846`)).toBe('got [redacted] and [redacted]');
  });
});
