import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readApiConfig } from '../../../src/config.js';
import { parseKeysFile } from '../../../src/keys-file.js';
import { SourceError } from '../../../src/sources/source-error.js';
import { readShopifyToken, readWooKeys } from '../../../src/sources/stores/credentials.js';
import { callStore } from '../../../src/sources/stores/http-call.js';
import { UsageError } from '../../../src/usage-error.js';

/**
 * A secret pasted with what a copy-paste brings along (a typographic quote, a line break inside):
 * one line naming the variable, never the value, before anything is sent. Node refuses such a
 * header value with a TypeError (ERR_INVALID_CHAR), which ended a run with a stack trace.
 */
const PASTED: Array<[string, string]> = [
  ['a typographic quote', 'shpat_x\u201d'],
  ['a line break inside', 'shpat_x\nsecond'],
  ['a tab inside', 'shpat_x\tsecond'],
];

function thrown(call: () => unknown): Error {
  try {
    call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, but nothing was thrown');
}

describe('a credential that no store or API issues', () => {
  it.each(PASTED)('SHOPIFY_ACCESS_TOKEN with %s: one line naming the variable', (_what, token) => {
    const error = thrown(() => readShopifyToken({ SHOPIFY_ACCESS_TOKEN: token }, undefined, 'shopify://s'));
    expect(error).toBeInstanceOf(SourceError);
    expect(error.message).toMatch(/^shopify:\/\/s: SHOPIFY_ACCESS_TOKEN holds .+: set it again/);
    expect(error.message).not.toContain('shpat_x');
    expect(error.message).not.toContain('\n');
  });

  it.each(PASTED)('WOO_CONSUMER_KEY or _SECRET with %s: one line naming the variable', (_what, key) => {
    const keyError = thrown(() =>
      readWooKeys({ WOO_CONSUMER_KEY: key, WOO_CONSUMER_SECRET: 'cs_1' }, undefined, 'woocommerce://w'),
    );
    expect(keyError.message).toMatch(/^woocommerce:\/\/w: WOO_CONSUMER_KEY holds /);
    const secretError = thrown(() =>
      readWooKeys({ WOO_CONSUMER_KEY_B: 'ck_1', WOO_CONSUMER_SECRET_B: key }, 'B', 'woocommerce://w'),
    );
    expect(secretError.message).toMatch(/^woocommerce:\/\/w: WOO_CONSUMER_SECRET_B holds /);
    expect(`${keyError.message}${secretError.message}`).not.toContain('shpat_x');
  });

  it.each(PASTED)('SELLER_API_KEY with %s: a UsageError naming the variable', (_what, key) => {
    const error = thrown(() =>
      readApiConfig({ SELLER_API_BASE_URL: 'https://api.example.com/api/v1', SELLER_API_KEY: key }, {}),
    );
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/^SELLER_API_KEY holds .+: set it again/);
    expect(error.message).not.toContain('shpat_x');
  });

  it('a typographic quote in the keys file: one line naming the file, the line and the name', () => {
    const error = thrown(() => parseKeysFile('\nSELLER_API_KEY_A=sk_a\u201d\n', 'keys.env', []));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(
      /^--keys-file keys\.env: line 2: SELLER_API_KEY_A holds a typographic quote/,
    );
    expect(error.message).not.toContain('sk_a');
  });

  it('a header Node refuses is a SourceError of the call, not a TypeError', async () => {
    const server = createServer((_req, res) => res.end('{}'));
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    const { port } = server.address() as AddressInfo;
    try {
      const call = callStore(
        new URL(`http://127.0.0.1:${port}/x`),
        { method: 'GET', headers: { 'x-shopify-access-token': 'shpat_x\u201d' } },
        'shopify+http://127.0.0.1',
        { maxBytes: 1000, timeoutMs: 5000, allowPrivateSource: true },
      );
      await expect(call).rejects.toThrow(SourceError);
      await expect(call).rejects.toThrow(
        /^shopify\+http:\/\/127\.0\.0\.1: the header x-shopify-access-token holds a character/,
      );
    } finally {
      server.close();
    }
  });
});
