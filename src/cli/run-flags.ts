import type { MissingValues } from '../missing/missing-values.js';
import type { JobReads } from './job-paths.js';
/**
 * Where each option of a run came from: `cli` (the command line) or the job file's name
 * (`nightly.yml`). An option absent from it was not given: it has its default, or no value.
 */
export type OptionOrigins = Readonly<Record<string, string>>;

/**
 * The options of `run` and `import` (README, Options of `run` and `import`), as parsed.
 * Its own module: run-options.ts parses them and job-file.ts fills them from a job file.
 */
export interface RunFlags {
  preset?: string;
  mapping?: string;
  /**
   * A job file's `mapping` as written there (`maps/de.yml`), where `mapping` is it resolved from the
   * project folder: the mapping file's errors name it so. Absent where `--mapping` gave it.
   */
  mappingAsWritten?: string;
  fields?: string[];
  createOnlyFields?: string[];
  /** `--first a,b`: a run over the day's quota sends updates of these fields first (default price,quantity). */
  first?: string[];
  /** `--keep-remote-edits a,b|all`: fields whose changes made on the marketplace are kept. */
  keepRemoteEdits?: string[];
  /** `--only-published`: rows the source platform does not sell are skipped. */
  onlyPublished: boolean;
  /** `--include-external`: products sold on another site (WooCommerce external) are sent. */
  includeExternal: boolean;
  /** `--price-includes-tax`: send gross prices. */
  priceIncludesTax: boolean;
  /** `--tax-rate P%`, as a decimal string (`20`, `7.7`). */
  taxRate?: string;
  /** `--price-decimals N`: money values with more decimals are sent rounded half up (absent: 2). */
  priceDecimals?: number;
  incremental: boolean;
  /** `--full-read-after`, in ms. */
  fullReadAfter: number;
  /** `--match-by`; absent: the mapping file's `matchBy`, else `sku` (the mapper decides). */
  matchBy?: string;
  concurrency: number;
  dryRun: boolean;
  report?: string;
  /** The report's path came from a job file: it is written without following a symbolic link. */
  reportFromJob?: boolean;
  /** The folders a report a job file chose must still lead into when it is opened (a folder swapped meanwhile). */
  reportWithin?: string[];
  /** The job file's own source and mapping: judged again on the descriptor each is read from (job-file-open.ts). */
  jobReads?: JobReads;
  /** The source is the job file's (not the command line's): a feed it names is held to the job's rules. */
  sourceFromJob?: boolean;
  /** `--data-dir DIR`: a folder, besides the job's project folder, that a job file's paths may name. */
  dataDir?: string;
  dailyReset: string;
  /** `--no-wait` sets it false. */
  wait: boolean;
  sandbox: boolean;
  dailyBudget?: number;
  keyEnv: string;
  /** `--seller NAME` (job files: `seller:`): the seller's name; its ref no longer depends on the key. */
  seller?: string;
  format?: 'csv' | 'json' | 'ndjson' | 'xml';
  delimiter?: string;
  encoding?: string;
  /** `--source-credentials NAME`: a store source's credentials from the `_<NAME>` variables. */
  sourceCredentials?: string;
  /** `--source-api-version V`: Shopify's Admin API version. */
  sourceApiVersion?: string;
  baseUrl?: string;
  redisUrl?: string;
  allowInsecure: boolean;
  /** `--source-timeout`, in ms: a source URL that delivers less than 1 KiB in a window this long stalls. */
  sourceTimeout: number;
  /** `--allow-private-source`: lifts the address policy (net/address-policy.ts) for sources, redirects and webhooks. */
  allowPrivateSource: boolean;
  /** `--max-record-bytes`: one record's cap, in bytes. */
  maxRecordBytes: number;
  /** `--force`: start even when Redis' room left looks too small for the run. */
  force: boolean;
  /** `--allow-eviction` (job files: `allowEviction`): work with a Redis whose maxmemory-policy evicts keys. */
  allowEviction: boolean;
  /** `--notify URL` (job files: `notify`): the webhook told of the run's end, hold and pauses. */
  notify?: string;
  /** `notify` is the job file's (not the command line's): its POST is held to the job's address rule. */
  notifyFromJob?: boolean;
  job?: string;
  /** `--max-invalid N|P%` (guard), as stored: `"5"` or `"10%"`. */
  maxInvalid?: string;
  /** `--max-updates N|P%` (guard). */
  maxUpdates?: string;
  /** `--max-price-change P%` (row guard), e.g. `"50%"`. */
  maxPriceChange?: string;
  /** `--only create|update`. */
  only?: 'create' | 'update';
  /** `--missing field=value,…` (job files: `missing:` as a map): typed as the generic preset reads them. */
  missing?: MissingValues;
  /** `--max-missing N|P%` (guard, with `--missing`). */
  maxMissing?: string;
  /**
   * Where each option the user gave came from (the command line, or the job file): a refusal of an
   * option that would do nothing names it where the user wrote it (option-conflicts.ts).
   */
  origins?: OptionOrigins;
}
