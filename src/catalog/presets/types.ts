import type { SourceRecord } from '../../interfaces.js';
import type { DecimalStyle, ParsedDecimal } from '../decimal.js';
import type { Columns } from './columns.js';
import type { KeyDerivation } from './key-derivation.js';

export const PRESET_NAMES = [
  'generic',
  'shopify',
  'woocommerce',
  'etsy',
  'amazon',
  'ebay',
  'magento',
  'google-merchant',
  'prestashop',
  'shopware',
  'bigcommerce',
] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

/**
 * `--only-published` (README, Options of `run` and `import`): what the source platform does with a product.
 * `active` is sold;
 * the others are not (a draft, a private or disabled product, an archived one, one not visible on
 * its own), and are never created as if live.
 */
export type SourceStatus = 'active' | 'draft' | 'private' | 'archived' | 'hidden';

export interface SourceState {
  status: SourceStatus;
  /** The source's own words for it, for the report: `WooCommerce Published -1 (draft)`. */
  says: string;
}

/** Product fields as raw text (or lists of text), before kinds are applied. Blank cells are absent. */
export type RawFields = Record<string, string | string[]>;

/**
 * What a preset makes of a record, before conversion and validation. Every record pushed into a
 * preset comes out as exactly one draft, possibly later (a Shopify handle waits for its next row).
 */
export type Draft =
  | {
      kind: 'product';
      record: SourceRecord;
      fields: RawFields;
      id?: string;
      /**
       * A key the preset derived because the source has no SKU (`shopify:<handle>`, `etsy:<slug>`):
       * the tool's own, the row's match key when matching by `sku`, never sent as the product's sku.
       */
      derivedKey?: string;
      /** What `derivedKey` was made of, for the message of a second row that makes it too. */
      derivedFrom?: KeyDerivation;
      /**
       * The key the preset derives from the platform's own lasting identity of the product (a
       * WooCommerce or PrestaShop ID, a Shopify handle with its option values), whether or not the
       * row has a SKU; never one made of a name, which another product may have later. A row
       * without SKU is matched by it (`derivedKey`); a row with one carries it as its former key
       * (ProductUpsert.formerKey), so that the product made before the SKU was given stays its own.
       */
      platformKey?: string;
      /**
       * The product's published state as the source says it, where the export carries one: sent as
       * `status`, or the row is skipped (see finishDraft). Absent: the source does not say.
       */
      state?: SourceState;
      /**
       * Sold on another site (a WooCommerce external/affiliate product): the reason it is skipped
       * unless the run asks for such products (`--include-external`).
       */
      external?: string;
      /** The platform sells it without a price of its own (see ProductUpsert.unpriced). */
      unpriced?: string;
      /**
       * The export says the product is on no sale now: its sale-price column is blank, or its sale
       * has ended or not begun (sale-dates.ts). A sale price the marketplace still shows below the
       * price is then ended (see ProductUpsert.noSale). Absent where the file has no such column.
       */
      noSale?: true;
      /** Why the row has no name where the file has no column for one (see ProductUpsert.unnamed). */
      unnamed?: string;
      /**
       * Why the row cannot be sent though the preset read it (a JSON item whose `quantity` and
       * `stock` give the quantity two values): invalid for it, under its key where it has one.
       */
      refused?: string;
      /**
       * What `price` and `sale_price` are, where the file says: `gross` (tax included) or `net`
       * with the row's tax rate in percent when the file gives one (`--price-includes-tax`).
       */
      tax?: { basis: 'gross' } | { basis: 'net'; rate?: string };
      /**
       * The records this product took fields from (a Shopify variant: its handle's title row and
       * image rows; a WooCommerce or Amazon variation: its parent): `report --failed-only` writes
       * them back with this one, so that the file, fixed, imports as the source meant it.
       */
      inheritsFrom?: SourceRecord[];
      notes: string[];
    }
  | {
      kind: 'merged';
      record: SourceRecord;
      key: string;
      intoRow: number;
      reason: string;
      /**
       * Its key is the key of another row of the same product (a Shopify image row, a BigCommerce
       * continuation row, a Magento store-view row), which comes out as a row of its own under it.
       * That row alone says whether the source holds the key: with `--missing`, a product left out
       * as not sold is gone from the source although its image rows name it (catalog/unsold.ts).
       * A merged container's own key (a variable product's) is not shared: absent.
       */
      sharesKey?: true;
    }
  | { kind: 'invalid'; record: SourceRecord; key?: string; reason: string }
  /** Not a product the platform sells on its own (a grouped product, an affiliate link): left out. */
  | {
      kind: 'skipped';
      record: SourceRecord;
      key?: string;
      reason: string;
      /** As a merged draft's: a row of another row's product (a BigCommerce rule row). */
      sharesKey?: true;
    };

export interface RowMapper {
  /** The drafts now complete: this record's, or those of an earlier group it closes. */
  push(record: SourceRecord): Draft[];
  /** The drafts still held when the source ends. */
  end(): Draft[];
}

/** `--price-includes-tax` (README, Options of `run` and `import`):
 * what a file's prices are, for the summary and the flags.
 */
export interface PriceBasis {
  /** The prices sent by default: `net` of tax, `gross`, or `mixed` (gross where a row has it). */
  basis: 'net' | 'gross' | 'mixed';
  /** Where they come from, for the summary: `Price tax excluded`. */
  from: string;
  /** True when the file gives each row's tax rate, so gross prices need no --tax-rate. */
  rates: boolean;
  /** Something tax-like the file holds that is not a rate (PrestaShop's `Tax rules ID`). */
  note?: string;
}

/** A header in the platform's store language, read back to the names the preset knows. */
export interface LocalizedHeader {
  /** One name per source column, in the same order: the preset's own name where one was found. */
  columns: string[];
  /** For the detection line: how it was read (`WooCommerce's German column names`). */
  says: string;
}

/** What a preset knows of the run it maps rows for. */
export interface PresetRun {
  /**
   * The run's start, epoch ms: a scheduled sale is sent when it runs then (sale-dates.ts). One
   * instant for every row, so that a long run does not judge its first and last rows apart.
   */
  now: number;
  /** `--fields` leaves `sale_price` out: its dates need not be read, nor a row refused for them. */
  salePriceUnsent?: boolean;
  /**
   * The source's decimal reader (catalog/decimal-reader.ts), for a preset that compares two of a
   * row's values before they are sent: read in the file's style, not the platform's usual one.
   * Absent: the preset's own style.
   */
  readDecimal?: (text: string) => ParsedDecimal;
  /**
   * The generic preset's: the name each column (a JSON record's key) is read under, `stock` as
   * quantity (generic-header.ts, generic-keys.ts). Absent: its own.
   */
  nameOf?: (column: string) => string;
  /**
   * The generic preset's: why a row has no name where a column (a key met so far) near it is sent
   * under its own name (`no name column; near it: Titel (title → name?)`), said after `missing name
   * for a new product`. Asked for a row without a name only.
   */
  unnamed?: () => string | undefined;
}

export interface Preset {
  name: PresetName;
  /** Detection: every `required` column must be present; `distinctive` ones add to the score. */
  signature: { required: string[][]; distinctive: string[] };
  /** `dot` where the platform's export always writes dot decimals, whatever the shop's locale. */
  decimalStyle: DecimalStyle;
  /** The fields this preset can produce from these columns (used to check `--fields`). */
  fields(columns: readonly string[]): string[];
  /** A row mapper over these columns (made by the mapper: open ones learn from each record, columns.ts). */
  create(columns: Columns, run: PresetRun): RowMapper;
  /**
   * For a platform that writes its header in the store's language: the header read back to the
   * preset's names, from the columns and the first records; undefined when it is not such a header.
   */
  localize?(columns: readonly string[], sample: readonly SourceRecord[]): LocalizedHeader | undefined;
  /**
   * For a platform whose import reads columns by their place, not their header: the header (as
   * `localize` left it) with its blank cells named by their place, where that place is certain;
   * undefined when none is (prestashop-layout.ts).
   */
  nameBlankColumns?(columns: readonly string[], sample: readonly SourceRecord[]): LocalizedHeader | undefined;
  /** What the file's prices are, where the platform's export says (net of tax, gross). */
  prices?(columns: readonly string[]): PriceBasis | undefined;
}

/** A preset whose rows map one to one: the common case. */
export function oneToOne(mapRecord: (record: SourceRecord) => Draft): RowMapper {
  return { push: (record) => [mapRecord(record)], end: () => [] };
}
