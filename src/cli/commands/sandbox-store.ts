import { randomBytes } from 'node:crypto';
import type { RunningDouble } from '../../sources/stores/double-server.js';
import { UsageError } from '../usage-error.js';

export const STORE_DOUBLES = ['shopify', 'woocommerce'] as const;
export type StoreDoubleName = (typeof STORE_DOUBLES)[number];

/** Default ports of the store doubles: beside the Seller API sandbox's 4010, so both may run. */
export const STORE_DOUBLE_PORTS: Record<StoreDoubleName, number> = { shopify: 4011, woocommerce: 4012 };

/** The Seller API sandbox's options: meaningless for a store double, refused rather than ignored. */
const SELLER_API_FLAGS: Record<string, string> = {
  key: '--key',
  dailyLimit: '--daily-limit',
  dayLength: '--day-length',
  resetHeader: '--reset-header',
  latency: '--latency',
  failRate: '--fail-rate',
  dropRate: '--drop-rate',
  acceptFields: '--accept-fields',
  hideFields: '--hide-fields',
  normalize: '--normalize',
  updateFields: '--update-fields',
  ignoreOnUpdate: '--ignore-on-update',
  listShape: '--list-shape',
  pageSize: '--page-size',
  createStatus: '--create-status',
};

export function checkStoreDoubleFlags(name: string, flags: Record<string, unknown>): StoreDoubleName {
  if (!(STORE_DOUBLES as readonly string[]).includes(name))
    throw new UsageError(`--as: ${name} is not one of ${STORE_DOUBLES.join(', ')}`);
  const named = Object.keys(SELLER_API_FLAGS).find((flag) => {
    const value = flags[flag];
    return value !== undefined && !(Array.isArray(value) && value.length === 0);
  });
  if (named)
    throw new UsageError(
      `--as ${name} serves a store double: ${SELLER_API_FLAGS[named]} is an option of the Seller API sandbox`,
    );
  if (flags.createBody === false)
    throw new UsageError(
      `--as ${name} serves a store double: --no-create-body is an option of the Seller API sandbox`,
    );
  return name as StoreDoubleName;
}

/**
 * Serves a store's API double with sample products, so a migration can be tried with no store:
 * resolves to the server and the lines to paste (the credentials are made up here, per start).
 */
export async function startStoreDouble(
  name: StoreDoubleName,
  listen: { port: number; host?: string },
): Promise<{ double: RunningDouble; lines: string }> {
  const host = listen.host ?? '127.0.0.1';
  const shown = host.includes(':') ? `[${host}]` : host;
  if (name === 'shopify') {
    const { startShopifyDouble } = await import('../../sources/stores/shopify/double.js');
    const { sampleShop } = await import('../../sources/stores/shopify/sample-shop.js');
    const token = `shpat_sandbox_${randomBytes(12).toString('hex')}`;
    const double = await startShopifyDouble(sampleShop(), { token, pollsBeforeDone: 1 }, listen);
    const source = `shopify+http://${shown}:${double.port}`;
    return {
      double,
      lines: [
        `# Shopify Admin API double with ${sampleShop().length} sample products; stop it with Ctrl-C`,
        `SHOPIFY_ACCESS_TOKEN=${token}`,
        `# then: catalog-sync run ${source} --sandbox`,
        '',
      ].join('\n'),
    };
  }
  const { startWooDouble } = await import('../../sources/stores/woocommerce/double.js');
  const { sampleCategories, sampleWooStore } = await import(
    '../../sources/stores/woocommerce/sample-store.js'
  );
  const consumerKey = `ck_sandbox_${randomBytes(12).toString('hex')}`;
  const consumerSecret = `cs_sandbox_${randomBytes(12).toString('hex')}`;
  const double = await startWooDouble(
    sampleWooStore(),
    sampleCategories(),
    { consumerKey, consumerSecret },
    listen,
  );
  const source = `woocommerce+http://${shown}:${double.port}/shop`;
  return {
    double,
    lines: [
      `# WooCommerce REST API double with ${sampleWooStore().length} sample products; stop it with Ctrl-C`,
      `WOO_CONSUMER_KEY=${consumerKey}`,
      `WOO_CONSUMER_SECRET=${consumerSecret}`,
      `# then: catalog-sync run ${source} --sandbox`,
      '',
    ].join('\n'),
  };
}
