import type { SourceNetwork } from '../url-connect.js';

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
  /** `--source-timeout`: less than 1 KiB in any window this long ends a call (store-stall.ts). */
  timeoutMs: number;
  connectTimeoutMs?: number;
  /** `--max-record-bytes`: one JSONL line, one product. */
  maxRecordBytes: number;
  /** The longest answer of a store's API (STORE_MAX_ANSWER_BYTES when absent); tests scale it down. */
  maxAnswerBytes?: number;
  /** Waits (throttling, Retry-After, polling); tests pass one that does not sleep. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** A line about the store's progress before rows flow (the bulk operation's objectCount). */
  onProgress?: (line: string) => void;
  /**
   * Runs the wait for a store that prepares its catalog before any row (Shopify's bulk operation):
   * the CLI gives it up on SIGINT/SIGTERM with one line, `interrupted (SIGINT) <interrupted>`
   * (signals.ts); `signal` then stops the wait's polling. Absent: the wait simply runs.
   */
  whilePreparing?: <T>(wait: (signal: AbortSignal) => Promise<T>, interrupted: string) => Promise<T>;
}

export const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
