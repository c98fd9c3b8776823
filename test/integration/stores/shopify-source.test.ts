import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ShopifyDouble, startShopifyDouble } from '../../../src/sources/stores/shopify/double.js';
import { sampleShop } from '../../../src/sources/stores/shopify/sample-shop.js';
import { runIdOf } from '../support/cli.js';
import { bySku, usePipeline } from '../support/pipeline.js';
import { dumpPrefix, withRedis } from '../support/redis-prefix.js';
import { runStore, type Waits } from './store-cli.js';

const TOKEN = 'shpat_double_token_0123456789';

describe('a Shopify shop read through its Admin API (bulk operation)', () => {
  const pipeline = usePipeline();
  let shop: ShopifyDouble | undefined;
  afterEach(async () => {
    await shop?.close();
  });

  let waits: Waits = { asked: [] };
  beforeEach(() => {
    waits = { asked: [] };
  });
  const run = (...args: string[]) =>
    runStore(pipeline, shop!.source, args, { SHOPIFY_ACCESS_TOKEN: TOKEN }, waits);

  it('migrates every variant as a product, as the export preset means them; a re-run and --dry-run make no write', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, pollsBeforeDone: 2 });

    const first = await run();

    expect(first.result.stderr).toBe('');
    expect(first.result.code).toBe(0);
    expect(first.result.stdout).toContain("preset shopify (the store's platform)");
    expect(first.result.stdout).toContain(
      `store ${shop.source} (Shopify Admin API 2026-10, bulk operation of 12 objects)`,
    );
    const products = bySku(pipeline.products());
    expect(products.get('LS-S')).toMatchObject({
      name: 'Linen shirt - S',
      price: 50,
      sale_price: 40,
      quantity: 7,
      weight: 200,
      barcode: '4006381333931',
      brand: 'Atelier Nord',
      category: 'Shirts',
    });
    expect(products.get('LS-M')).toMatchObject({
      name: 'Linen shirt - M',
      price: 40,
      quantity: 0,
      weight: 250,
    });
    expect(products.get('LS-M')?.images).toEqual([
      'https://cdn.shopify.example/files/linen-shirt-back.jpg',
      'https://cdn.shopify.example/files/linen-shirt-front.jpg',
    ]);
    expect(products.get('WC-1')).toMatchObject({ status: 'draft' });
    expect(products.get('OL-1')).toMatchObject({ status: 'archived' });
    const mug = pipeline.products().find((product) => product.name === 'Clay mug');
    expect(mug).toBeDefined();
    expect(mug).not.toHaveProperty('quantity');
    expect(mug?.price).toBe(12.5);
    expect(first.report.find((line) => line.key === 'shopify:clay-mug')?.note).toContain('quantity not sent');
    expect(pipeline.products()).toHaveLength(5);
    // The token went to the Admin API only, never to the result file's host.
    expect(shop.requests.filter((request) => request.operation === 'result').map((r) => r.token)).toEqual([
      undefined,
    ]);

    const second = await run();
    expect(second.result.code).toBe(0);
    expect(second.writes).toMatchObject({ creates: 0, updates: 0 });
    expect(second.report.map((line) => line.action)).toEqual(second.report.map(() => 'unchanged'));

    shop.seams.pollsBeforeDone = 0;
    const dry = await run('--dry-run');
    expect(dry.result.code).toBe(0);
    expect(dry.stats.writesApplied).toBe(0);
  });

  it('with --only-published, the draft and the archived product are skipped, not created', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const first = await run('--only-published');

    expect(first.result.code).toBe(0);
    expect(
      pipeline
        .products()
        .map((product) => product.name)
        .sort(),
    ).toEqual(['Clay mug', 'Linen shirt - M', 'Linen shirt - S']);
    expect(
      first.report
        .filter((line) => line.action === 'skipped')
        .map((line) => line.key)
        .sort(),
    ).toEqual(['OL-1', 'WC-1']);
  });

  it('with --only-published and --missing, a product archived in the shop since gets the --missing fields', async () => {
    const products = sampleShop();
    shop = await startShopifyDouble(products, { token: TOKEN });
    const nightly = ['--only-published', '--missing', 'quantity=0', '--max-missing', '2'];
    expect((await run(...nightly)).result.code).toBe(0);
    expect(bySku(pipeline.products()).get('LS-S')).toMatchObject({ quantity: 7, status: 'active' });

    const shirt = products.find((product) => product.handle === 'linen-shirt');
    if (shirt) shirt.status = 'ARCHIVED';
    const archived = await run(...nightly);

    expect(archived.result.code).toBe(0);
    expect(archived.writes).toMatchObject({ creates: 0, updates: 1 });
    expect(bySku(pipeline.products()).get('LS-S')).toMatchObject({ quantity: 0 });
    expect(
      archived.report
        .filter((line) => line.key?.startsWith('LS-'))
        .map((line) => [line.row === '' ? 'after' : 'row', line.key, line.action, line.note]),
    ).toEqual([
      ['row', 'LS-S', 'skipped', ''],
      ['row', 'LS-M', 'skipped', ''],
      // In product id order: LS-S was created first. LS-M's stock was 0 already: no request.
      ['after', 'LS-S', 'deactivate', ''],
      ['after', 'LS-M', 'deactivate', 'already so'],
    ]);
    expect(archived.report.find((line) => line.key === 'LS-S')?.error).toBe(
      'not sold in the source (Shopify Status archived): left out (--only-published); counted as gone from the source (--missing)',
    );
  });

  it('waits out THROTTLED answers as the cost extension says, then migrates', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, throttled: 3 });

    const first = await run();

    expect(first.result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(5);
    // Three answered THROTTLED and were asked again: the shop's currency, its first query (throttled
    // ×3, then once), then the bulk operation's run and polls.
    expect(shop.requests.filter((request) => request.operation === 'shop')).toHaveLength(4);
    expect(shop.requests.filter((request) => request.operation === 'run')).toHaveLength(1);
    // (50 points needed − 10 available) at 50 a second: 0.8 s, and never less than a second.
    expect(waits.asked.slice(0, 3)).toEqual([1000, 1000, 1000]);
  });

  it.each([
    ['FAILED', "Shopify's bulk operation failed (INTERNAL_SERVER_ERROR): run again later; nothing was sent"],
    ['CANCELED', 'the bulk operation was canceled in the shop: run again; nothing was sent'],
  ] as const)('a %s bulk operation is one line, exit 2, no write', async (ending, line) => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, ending, pollsBeforeDone: 1 });

    const first = await run();

    expect(first.result.code).toBe(2);
    expect(first.result.stderr.trim().split('\n')).toEqual([
      `catalog-sync: shopify+http://127.0.0.1:${shop.port}: ${line}`,
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('an expired result URL is one line, exit 2, no write', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN, expiredResult: true });

    const first = await run();

    expect(first.result.code).toBe(2);
    expect(first.result.stderr.trim().split('\n')).toEqual([
      `catalog-sync: shopify+http://127.0.0.1:${shop.port}: the bulk operation's result URL has expired (403): run again; nothing was sent`,
    ]);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('--source-api-version sets the Admin API version asked for; a bad one, or one given for a file, is one line (exit 2)', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const versioned = await run('--source-api-version', '2024-10');
    expect(versioned.result.code).toBe(0);
    expect(new Set(shop.requests.filter((r) => r.method === 'POST').map((r) => r.path))).toEqual(
      new Set(['/admin/api/2024-10/graphql.json']),
    );

    const bad = await pipeline.cli(['run', shop.source, '--source-api-version', 'latest'], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([
      'catalog-sync: --source-api-version takes a Shopify API version such as 2026-10 (YYYY-01, -04, -07 or -10), not "latest"',
    ]);

    const file = await pipeline.csv('catalog.csv', [{ sku: 'A', name: 'A', price: '1' }]);
    const forFile = await pipeline.cli(['run', file, '--source-api-version', '2024-10']);
    expect(forFile.code).toBe(2);
    expect(forFile.stderr.trim().split('\n')).toEqual([
      `catalog-sync: --source-api-version is for a store source (shopify://, woocommerce://), not ${file}`,
    ]);
  });

  it('--source-api-version holding what looks like a token is refused without echoing it (exit 2)', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const pasted = await pipeline.cli(['run', shop.source, '--source-api-version', 'shpat_abc123SECRET'], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
    });

    expect(pasted.code).toBe(2);
    expect(pasted.stderr.trim().split('\n')).toEqual([
      'catalog-sync: --source-api-version takes a Shopify API version such as 2026-10 (YYYY-01, -04, -07 or -10), ' +
        'not the value given (18 characters, not shown: it looks like no version, and may be a secret)',
    ]);
    expect(`${pasted.stdout}${pasted.stderr}`).not.toMatch(/abc123|SECRET|shpat_/);
    expect(shop.requests).toEqual([]);
  });

  it('a job file names the store and its credentials by NAME; a job file holding a token is refused', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });
    await mkdir(join(pipeline.dir, 'jobs'), { recursive: true });
    const job = join(pipeline.dir, 'jobs', 'shop.yml');
    await writeFile(job, `source: ${shop.source}\nsourceCredentials: SHOP_B\n`, 'utf8');

    // The job's store is one the operator allows (store-hosts.test.ts: one not allowed).
    const allowed = { CATALOG_SYNC_STORE_HOSTS: `127.0.0.1:${shop.port}` };
    const result = await pipeline.cli(['run', '--job', job], {
      ...allowed,
      SHOPIFY_ACCESS_TOKEN_SHOP_B: TOKEN,
    });

    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(pipeline.products()).toHaveLength(5);

    // A token pasted where its NAME goes is refused, and not echoed.
    await writeFile(job, `source: ${shop.source}\nsourceCredentials: ${TOKEN}\n`, 'utf8');
    const refused = await pipeline.cli(['run', '--job', job], { ...allowed, SHOPIFY_ACCESS_TOKEN: TOKEN });
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain('sourceCredentials');
    expect(refused.stderr).not.toContain(TOKEN);
    const flag = await pipeline.cli(['run', shop.source, '--source-credentials', TOKEN], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
    });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--source-credentials takes a NAME');
    expect(flag.stderr).not.toContain(TOKEN);
  });

  it('the token reaches neither Redis, nor the report, nor the output; the run records the store URL', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const first = await runStore(pipeline, shop.source, [], {
      SHOPIFY_ACCESS_TOKEN: TOKEN,
      LOG_LEVEL: 'trace',
    });

    expect(first.result.code).toBe(0);
    const runId = runIdOf(first.result.stdout);
    const status = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as Record<
      string,
      unknown
    >;
    expect(status.source).toBe(shop.source);
    const stored = await withRedis((redis) => dumpPrefix(redis, pipeline.prefix));
    expect(stored).toContain(shop.source);
    expect(stored).not.toContain(TOKEN);
    expect(first.result.stdout + first.result.stderr + JSON.stringify(first.report)).not.toContain(TOKEN);
  });

  it('a wrong token is one line naming its variable, never the token (exit 2)', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: 'shpat_the_right_one' });

    const first = await run();

    expect(first.result.code).toBe(2);
    expect(first.result.stderr.trim().split('\n')).toEqual([
      `catalog-sync: shopify+http://127.0.0.1:${shop.port}: Shopify refused the access token in SHOPIFY_ACCESS_TOKEN (401): check it, or create one in a custom app with read_products`,
    ]);
    expect(first.result.stderr).not.toContain(TOKEN);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('--source-credentials NAME reads SHOPIFY_ACCESS_TOKEN_<NAME>; its absence is one line naming it', async () => {
    shop = await startShopifyDouble(sampleShop(), { token: TOKEN });

    const missing = await pipeline.cli(['run', shop.source, '--source-credentials', 'SHOP_B']);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim().split('\n')).toEqual([
      `catalog-sync: shopify+http://127.0.0.1:${shop.port}: SHOPIFY_ACCESS_TOKEN_SHOP_B is not set (the store's credentials come from the environment)`,
    ]);

    const named = await pipeline.cli(['run', shop.source, '--source-credentials', 'SHOP_B'], {
      SHOPIFY_ACCESS_TOKEN_SHOP_B: TOKEN,
    });
    expect(named.code).toBe(0);
    expect(pipeline.products()).toHaveLength(5);
    expect(shop.requests.filter((request) => request.path.startsWith('/admin/api/'))[0]?.path).toBe(
      '/admin/api/2026-10/graphql.json',
    );
  });
});
