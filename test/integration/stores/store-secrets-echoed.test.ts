import { afterEach, describe, expect, it } from 'vitest';
import { type RunningDouble, serveDouble } from '../../../src/sources/stores/double-server.js';
import { usePipeline } from '../support/pipeline.js';
import { oneLine, runStore } from './store-cli.js';

const KEY = 'ck_STORESECRET_1';
const SECRET = 'cs_STORESECRET_2';
const TOKEN = 'shpat_STORESECRET_3';
const WOO_ENV = { WOO_CONSUMER_KEY: KEY, WOO_CONSUMER_SECRET: SECRET };
const BASIC = Buffer.from(`${KEY}:${SECRET}`).toString('base64');

/**
 * A store that echoes the credentials it was sent in its error answer (WordPress quotes the
 * parameters it refused; a GraphQL error may quote the header): the message says what the store
 * said, with the credentials redacted, as the Seller API's key is.
 */
describe("a store's credentials echoed in its answer", () => {
  const pipeline = usePipeline();
  let store: RunningDouble | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it.each([
    ['as written', `Invalid parameter(s): consumer_key ${KEY} secret ${SECRET}`],
    // PHP's json_encode: every character escaped, or `/` as `\/`; the body holds no secret as written.
    ['in JSON escapes', `Invalid parameter(s): consumer_key ${escaped(KEY)} secret ${escaped(SECRET)}`],
    [
      'in a query string, with the Basic header',
      `bad query consumer_key=${encodeURIComponent(KEY)}&auth=${BASIC}`,
    ],
  ])('WooCommerce, %s: the 400 line quotes the store with them redacted', async (_how, message) => {
    store = await serveDouble(() => ({
      status: 400,
      body: `{"code":"rest_invalid_param","message":"${message}","data":{"status":400}}`,
    }));

    const refused = await runStore(
      pipeline,
      `woocommerce+http://127.0.0.1:${store.port}`,
      ['--dry-run'],
      WOO_ENV,
    );

    expect(refused.result.code).toBe(2);
    const line = oneLine(refused.result.stderr);
    expect(line).toMatch(
      /answered 400 .*"(Invalid parameter\(s\)|bad query).*\[redacted\].*" \(rest_invalid_param\)$/,
    );
    const said = `${refused.result.stdout}${refused.result.stderr}`;
    expect(said).not.toContain('STORESECRET');
    expect(said).not.toContain(BASIC.slice(0, 12));
  });

  it('Shopify: a GraphQL error holding the token is quoted with it redacted', async () => {
    store = await serveDouble(() => ({
      status: 200,
      body: JSON.stringify({ errors: [{ message: `Invalid header x-shopify-access-token: ${TOKEN}` }] }),
    }));

    const refused = await runStore(pipeline, `shopify+http://127.0.0.1:${store.port}`, ['--dry-run'], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
    });

    expect(refused.result.code).toBe(2);
    expect(oneLine(refused.result.stderr)).toMatch(
      /the Admin API refused the query: Invalid header x-shopify-access-token: \[redacted\]$/,
    );
    expect(`${refused.result.stdout}${refused.result.stderr}`).not.toContain('STORESECRET');
  });
});

/** `\u0063\u006b…`: each character as a JSON escape, inside a JSON string literal of the test's body. */
function escaped(text: string): string {
  return [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
}
