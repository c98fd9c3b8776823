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
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /**
   * The read given up (open-store.ts aborts it when the source is closed: the CLI interrupted): the
   * wait and the call under way end at once rather than when the store's wait or answer would.
   */
  signal?: AbortSignal;
  /** A line about the store's progress before rows flow (the bulk operation's objectCount). */
  onProgress?: (line: string) => void;
  /**
   * One line as a long wait the store asked for begins (a 429's Retry-After: store-wait.ts), said
   * whatever the terminal: the run shows nothing else while it lasts.
   */
  onWait?: (line: string) => void;
  /**
   * Runs the wait for a store that prepares its catalog before any row (Shopify's bulk operation):
   * the CLI gives it up on SIGINT/SIGTERM with one line, `interrupted (SIGINT) <interrupted>`
   * (signals.ts); `signal` then stops the wait's polling. Absent: the wait simply runs.
   */
  whilePreparing?: <T>(
    wait: (signal: AbortSignal) => Promise<T>,
    /** Made as the signal comes, when a function: what the wait knows then (an operation started or not). */
    interrupted: string | (() => string),
  ) => Promise<T>;
}

/** A timer, ended early (rejecting with the signal's reason) when `signal` is aborted. */
export const defaultSleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const given = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', given);
      resolve();
    }, ms);
    signal?.addEventListener('abort', given, { once: true });
  });

/**
 * The reader's sleep bound to its read's signal: a seam that ignores the signal (a test's, which
 * returns at once) is followed by the same check, so a read given up never goes on after a wait.
 */
export function sleepOf(options: Pick<StoreReadOptions, 'sleep' | 'signal'>): (ms: number) => Promise<void> {
  const sleep = options.sleep ?? defaultSleep;
  const signal = options.signal;
  return async (ms) => {
    await sleep(ms, signal);
    signal?.throwIfAborted();
  };
}
