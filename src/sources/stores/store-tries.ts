import { STORE_RETRIES, STORE_RETRY_FIRST_MS } from '../../defaults.js';
import { SourceError } from '../source-error.js';
import { StoreCallFailure } from './http-call.js';

/** Answers of a server (or of the proxy before it) that a later try of the same read may not get. */
const PASSING_STATUSES = new Set([500, 502, 504]);

export function isPassingStatus(status: number): boolean {
  return PASSING_STATUSES.has(status);
}

/**
 * The tries of one call to a store, against the failures a flaky host gives now and then (a 502
 * from its proxy, a connection reset, a restart refusing connections): waited out with a backoff
 * (1 s, 2 s, 4 s) and tried again, STORE_RETRIES times at most, then the run ends with the last
 * failure's line. A read (a page, a poll, the result file) is tried again whatever happened: asking
 * twice changes nothing in the store. Any other call (Shopify's mutation that starts the bulk
 * operation) only when its request never left. Not tried again: a call that got less than 1 KiB in
 * a window of `--source-timeout` (the user's bound: store-stall.ts), a TLS handshake that fails on
 * what the server presents (http-call.ts), and 429/503, which are waited out as the store says
 * (their own count, STORE_MAX_RETRIES_IN_A_ROW).
 */
export class StoreTries {
  private retried = 0;

  constructor(
    private readonly read: boolean,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  /** After a failed call: resolves once it may be tried again, else throws the line to end with. */
  async afterFailure(error: unknown): Promise<void> {
    if (!(error instanceof StoreCallFailure) || (error.sent && !this.read)) throw error;
    await this.again(error.message);
  }

  /** After a 500, 502 or 504: `line` is what ends the run when no try is left. */
  async afterPassingStatus(line: string): Promise<void> {
    if (!this.read) throw new SourceError(line);
    await this.again(line);
  }

  private async again(line: string): Promise<void> {
    if (this.retried >= STORE_RETRIES) throw new SourceError(`${line} (tried ${this.retried + 1} times)`);
    await this.sleep(STORE_RETRY_FIRST_MS * 2 ** this.retried);
    this.retried++;
  }
}
