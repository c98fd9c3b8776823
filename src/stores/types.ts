import type { SourceNetwork } from '../sources/url-connect.js';

/** What reading a store is given: its credentials' choice, the address policy, and the seams tests use. */
export interface StoreReadOptions {
  /** Where the credentials are read from (the process's environment, with `--keys-file`'s keys). */
  env: NodeJS.ProcessEnv;
  /** `--source-credentials NAME`: the `_<NAME>` form of the credential variables. */
  credentials?: string;
  /** `--source-api-version`: Shopify's Admin API version. */
  apiVersion?: string;
  /** `--allow-insecure`: plain HTTP (`+http`) to a host that is not loopback. */
  allowInsecure: boolean;
  /** `--allow-private-source`. */
  allowPrivateSource: boolean;
  network?: SourceNetwork;
  /** `--source-timeout`: no byte for this long ends a call. */
  timeoutMs: number;
  connectTimeoutMs?: number;
  /** `--max-record-bytes`: one JSONL line, one product. */
  maxRecordBytes: number;
  /** Waits (throttling, Retry-After, polling); tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** A line about the store's progress before rows flow (the bulk operation's objectCount). */
  onProgress?: (line: string) => void;
}

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** One answer of a store's API (a poll, a page) may hold this much; a page of 100 products is far less. */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;
/** Waits asked by the store (throttle, Retry-After) are capped: a wrong header must not hang a run. */
export const MAX_WAIT_MS = 5 * 60_000;
/** Throttled or busy answers in a row before the run gives up (each waited out first). */
export const MAX_RETRIES_IN_A_ROW = 20;
