/**
 * The words of catalog-sync, and the types that cross from one stage to the next.
 *
 * Glossary
 * - **source**: what the seller gives us: a file path, `-` (standard input) or an http(s) URL of a feed.
 * - **record**: one data record read from a source, with its 1-based data row number (the header is
 *   not counted) and the physical line where it starts. Values are raw strings, as read.
 * - **preset**: the column mapping of a known export (shopify, woocommerce, …); `generic` sends each
 *   column as the product field of the same name.
 * - **mapping**: a user's file (JSON or YAML) that maps source columns to product fields with transforms.
 * - **upsert**: what a record becomes once mapped and validated: a match key and the product fields
 *   to send. A blank cell is absent from `fields` ("leave as it is"), never an empty value.
 * - **match key**: the value of the `--match-by` field (default `sku`) that identifies a product across runs.
 * - **seller**: the account behind an API key. We never store the key: a seller is named by a
 *   **seller ref**, a short fingerprint (hash) of the key, and jobs carry the *name* of the environment
 *   variable that holds the key (`keyEnv`).
 * - **run**: one import of one source for one seller; it ends when every row is **settled**.
 * - **outcome**: what became of a row: its action (`create`, `update`, `unchanged`, `invalid`,
 *   `merged`, `skipped`) and status (`ok`, `failed`, `planned`, `held`).
 */

/** A decimal number kept as a canonical string ("12.5", "1299", "0.05"): exact, comparable with ===. */
export type Decimal = string & { readonly __decimal: unique symbol };

/** A product field value as sent to the API. Prices and quantities are JSON numbers. */
export type FieldValue = string | number | boolean | string[];

/** Product fields by name, as sent in a POST or PUT body. */
export type ProductFields = Record<string, FieldValue>;

/** One data record of a source. */
export interface SourceRecord {
  /** 1-based data row number (the header row is not counted). */
  row: number;
  /** 1-based physical line (or, for XML/JSON, item position) where the record starts. */
  line: number;
  /** Raw values by column name. A missing column is absent; an empty cell is ''. */
  values: Record<string, string>;
  /**
   * The values the source gave as lists (a JSON array, a repeated XML element), by column: their
   * items as read. `values` holds each joined with `|`, as a text field reads it; a list field
   * reads the items (catalog/source-lists.ts), so that an item is never cut at a `,` nor two
   * items run together. Absent when the record has none (a CSV cell is text, split on `,`).
   */
  lists?: Record<string, string[]>;
  /**
   * Set when the record could not be read whole (e.g. more cells than the header has columns):
   * a one-line reason. The mapper turns such a record into an invalid row; it is never dropped.
   */
  problem?: string;
  /**
   * With `problem`: each cell is where the source put it, only text in one could not be read (bytes
   * not valid in the encoding), so the row's key is still reported where its own cell reads whole
   * (catalog/unread-row-key.ts). Absent: a cell may be out of its column (more cells than the header).
   */
  cellsInPlace?: true;
  /**
   * CSV only: the cells read from Excel text (`="00123"` read as `00123`: sources/csv-header.ts),
   * each with the text read. An earlier version read such a cell as written, so a product made then
   * may have it as its key (ProductUpsert.excelKey). Absent when the record has none.
   */
  excelText?: { text: string; cell: string }[];
}

/** A record mapped and validated: ready to be diffed against the seller's products. */
export interface ProductUpsert {
  kind: 'upsert';
  row: number;
  line: number;
  /** The match key value (of `--match-by`). */
  key: string;
  /** The remote product id, when the source carries one (generic preset's `id` column). */
  id?: string;
  /**
   * Fields to send; blank cells are absent. Includes the match field, unless `--fields` leaves it
   * out or the key was derived by a preset (a file without SKU): the row is then matched by `key`
   * through the ids this tool recorded.
   */
  fields: ProductFields;
  /** Non-fatal notes about this row, e.g. "key derived from handle and options". */
  notes?: string[];
  /**
   * The key this row's product had before the row had a SKU: the preset's lasting platform key
   * (`woocommerce:id:69`, `shopify:<handle>:<options>`), when matching by `sku`. A product this tool
   * created or matched under it is this row's (sync/former-keys.ts): it is given the SKU, not made
   * again. Absent for most rows.
   */
  formerKey?: string;
  /**
   * Set when the row's key was read from a cell of Excel text (`="00123"` read as `00123`): the key
   * as an earlier version read that cell, as written. A product found under no form of the key is
   * looked for under this one (sync/excel-text-keys.ts), then given the key. Absent for most rows.
   */
  excelKey?: string;
  /**
   * Set when the key is one the preset derived (the row has no SKU): the row is matched to its
   * product through the ids this tool records alone, so its create is checked against the listed
   * products without a SKU the tool has no record of (guards/lookalike-creates.ts).
   */
  derivedKey?: true;
  /**
   * Set when the source platform sells this product without a price of its own (a Magento bundle
   * priced from its parts): a create, which needs a price, is then `skipped` with this reason
   * rather than `invalid`. An update of an existing product still goes out.
   */
  unpriced?: string;
  /**
   * Set when the source does not sell this product (what it says, e.g. `Shopify Status draft`) and
   * `--fields` does not send `status`: a create, which could only go out live, is then `skipped`; an
   * update of an existing product goes out with the fields sent, its status there left as it is.
   */
  notSold?: string;
  /**
   * Set when the row has no name because its file has no column for one (`the file has no
   * item_name column`): a create, which needs a name, says so after "missing name".
   */
  unnamed?: string;
  /**
   * Set when the source says the product is on no sale now (a blank sale price in an export that
   * always writes one, a sale ended or not begun) and the run sends `sale_price`: a sale price the
   * marketplace still shows below the price is ended by sending the price as the sale price, as
   * the API cannot clear a field (sync/sale-end.ts). Never sent itself.
   */
  noSale?: true;
  /**
   * Set when the row names its price's currency (`12.50 EUR`) and `--fields` sends the price but not
   * `currency`: the price is sent only to a listed product in that currency; any other row is
   * invalid, saying to add currency to --fields (sync/currency-unsent.ts). Never sent itself.
   */
  currencyUnsent?: CurrencyUnsent;
}

/** The currency a row's price is in, not sent (`--fields`), and the cell that says so (`price "12.50 EUR"`). */
export interface CurrencyUnsent {
  currency: string;
  cell: string;
}

/** A record that cannot be sent; reported with its row number and a one-line reason. */
export interface InvalidRow {
  kind: 'invalid';
  row: number;
  line: number;
  /** The match key, when one could be read. */
  key?: string;
  /**
   * Its key is not the one the seller wrote (a spreadsheet's `1.23457E+08`: source-keys.ts
   * untrustedKey): the product the row stands for is not known, as for a row with no key.
   */
  keyUntrusted?: true;
  reason: string;
  /** As an upsert's: with `--missing`, the source holds the product under it too. */
  formerKey?: string;
  /** As an upsert's (ProductUpsert.excelKey): with `--missing`, the source holds the product under it too. */
  excelKey?: string;
}

/**
 * A record that carries no product of its own but adds to another row's product
 * (e.g. a Shopify image-only row). Reported as `merged` with the row it went into.
 */
export interface MergedRow {
  kind: 'merged';
  row: number;
  line: number;
  key: string;
  /** The data row whose product this record was merged into. */
  intoRow: number;
  reason: string;
  /** With `--missing`: its key is its target row's, which holds it or not (Draft's `sharesKey`). */
  sharesKey?: true;
}

/**
 * A record the source platform itself does not sell as a product of its own, or that the run was
 * told to leave out: a draft with `--only-published`, a WooCommerce external (affiliate) product,
 * a grouped product (its items are rows of their own). Reported `skipped`, status `ok`, with the
 * reason; no request, and it does not make the run's exit code 1.
 */
export interface SkippedRow {
  kind: 'skipped';
  row: number;
  line: number;
  /** The match key, when one could be read. */
  key?: string;
  reason: string;
  /** As an upsert's (ProductUpsert.formerKey). */
  formerKey?: string;
  /** As an invalid row's (InvalidRow.excelKey). */
  excelKey?: string;
  /**
   * Left out because the source does not sell it (a draft, an archived product), in a run with
   * `--missing`: the seller took it off sale, so the source no longer offers it, and its product is
   * missing like one gone from the file (catalog/unsold.ts). Its key is read but not held.
   */
  unsold?: true;
  /** With `--missing`: its key is another row's, which holds it or not (Draft's `sharesKey`). */
  sharesKey?: true;
}

export type MappedRow = ProductUpsert | InvalidRow | MergedRow | SkippedRow;

/**
 * `skipped`: a row left out on purpose (SkippedRow, or one the diff found the platform sells that
 * way), status `ok`; or a row that could not be diffed at all (the product list could not be
 * read), status `failed`.
 */
export type RowAction =
  | 'create'
  | 'update'
  | 'unchanged'
  | 'invalid'
  | 'merged'
  | 'missing'
  | 'skipped'
  /** A managed product the source no longer holds, given the `--missing` fields (not a source row). */
  | 'deactivate';
export type RowStatus = 'ok' | 'failed' | 'planned' | 'held';

/** The settled result of one source row (or of one remote product missing from the source). */
export interface RowOutcome {
  /** Empty for `missing` lines. */
  row: number | null;
  key: string;
  action: RowAction;
  productId: string | null;
  status: RowStatus;
  /** Empty when ok; otherwise a one-line reason. */
  error: string;
  /** What the tool did to the row beyond the action (a key it derived, a field not sent and why). */
  note?: string;
}
