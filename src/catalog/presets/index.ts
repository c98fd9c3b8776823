import { amazon } from './amazon.js';
import { bigcommerce } from './bigcommerce.js';
import { ebay } from './ebay.js';
import { etsy } from './etsy.js';
import { generic } from './generic.js';
import { googleMerchant } from './google-merchant.js';
import { magento } from './magento.js';
import { prestashop } from './prestashop.js';
import { shopify } from './shopify.js';
import { shopware } from './shopware.js';
import type { Preset, PresetName } from './types.js';
import { woocommerce } from './woocommerce.js';

export const PRESETS: Readonly<Record<PresetName, Preset>> = {
  generic,
  shopify,
  woocommerce,
  etsy,
  amazon,
  ebay,
  magento,
  'google-merchant': googleMerchant,
  prestashop,
  shopware,
  bigcommerce,
};

/**
 * The presets whose exports say whether a product is sold (Draft.state). With the others, a row says
 * it only by a `status` field of its own (unsold.ts stateOfOwnStatus): without one, `--only-published`
 * would leave nothing out (cli/option-conflicts.ts).
 */
export const PUBLISHED_STATE_PRESETS: ReadonlySet<string> = new Set<PresetName>([
  'shopify',
  'woocommerce',
  'magento',
  'google-merchant',
  'prestashop',
  'shopware',
  'bigcommerce',
]);

export { isAmazonTemplatePreamble } from './amazon.js';
export type {
  Draft,
  LocalizedHeader,
  Preset,
  PresetName,
  PresetRun,
  PriceBasis,
  RawFields,
  RowMapper,
  SourceState,
  SourceStatus,
} from './types.js';
export { PRESET_NAMES } from './types.js';
