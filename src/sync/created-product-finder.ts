import type { ProductFields } from '../interfaces.js';
import { compactEquals, compactFields } from './compact-value.js';
import type { IndexedProduct } from './diff.js';
import type { UnkeyedProduct } from './remote-index.js';

/** One re-read of the seller's products: its number, when it began, and its result. */
interface Read {
  generation: number;
  startedAt: number;
  done: Promise<UnkeyedProduct[]>;
}

/**
 * Finds the product a create made when its answer was lost (docs/architecture.md, decision 4).
 *
 * A lost answer means re-reading the seller's products. Those reads are shared: a row joins the read
 * running, or the last one settled, as long as that read began after the row's create could last have
 * been applied (an earlier read may predate the write). For an answer lost here, that is a read begun
 * after the loss (`mark`); for a claim whose holder stopped renewing it, a read begun at or after the
 * claim's expiry (`markSince`): a worker killed mid-chunk leaves every claim of its chunk, and all of
 * them are found with one read, not one per turn of the rows (at 100,000 products, a read is ~1,000
 * requests of the seller's day).
 */
export class CreatedProductFinder {
  private started = 0;
  private current: Read | null = null;
  /** The latest read that settled with its products; a row may still be recent enough for it. */
  private last: Read | null = null;
  private readonly claimed = new Set<string>();
  /** Rows waiting to start a read, woken when another row starts one (they may join it). */
  private readonly onStart: Array<() => void> = [];

  constructor(
    /** Re-reads every page into the run's index; resolves to the products without a known key. */
    private readonly refresh: () => Promise<UnkeyedProduct[]>,
    /** The product indexed under a match key, after a refresh. */
    private readonly byKey: (key: string) => Promise<IndexedProduct | null>,
    private readonly matchBy: string,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /** Call when the answer was lost, before any await: it fixes which reads are recent enough. */
  mark(): number {
    return this.started;
  }

  /**
   * For a create that could not have been applied after `instant` (epoch ms: a stopped holder's claim
   * expiry; its holder renews it while its create is under way): any read begun at or after it will do.
   */
  markSince(instant: number): number {
    for (const read of [this.last, this.current]) {
      if (read && read.startedAt >= instant) return read.generation - 1;
    }
    return this.started;
  }

  /**
   * The product the create of `key` made, if a read recent enough for `markedAt` shows it. A read this
   * row has to start itself begins no sooner than `startNotBefore` (epoch ms), so that rows whose
   * claims go stale a little later can share it; a read another row starts meanwhile is joined.
   */
  async find(
    key: string,
    fields: ProductFields,
    markedAt: number,
    startNotBefore = 0,
  ): Promise<IndexedProduct | null> {
    const unkeyed = await this.refreshAfter(markedAt, startNotBefore);
    const found = await this.byKey(key);
    if (found) return found;
    // The API does not show the match field: the product is the unclaimed one with every sent field equal.
    const { [this.matchBy]: _hidden, ...comparable } = fields;
    const wanted = compactFields(comparable);
    const names = Object.keys(wanted);
    if (names.length === 0) return null;
    const match = unkeyed.find(
      (product) =>
        !this.claimed.has(product.id) &&
        names.every((name) => {
          const theirs = product.values[name];
          return theirs !== undefined && compactEquals(wanted[name] as never, theirs);
        }),
    );
    if (!match) return null;
    this.claimed.add(match.id);
    return match;
  }

  private async refreshAfter(markedAt: number, startNotBefore: number): Promise<UnkeyedProduct[]> {
    let waited = false;
    for (;;) {
      const { current, last } = this;
      if (last && last.generation > markedAt) return last.done;
      if (current && current.generation > markedAt) return current.done;
      if (current) {
        await current.done.catch(() => undefined);
        continue;
      }
      // Waited once (the sleep is a seam: a test's may not advance the clock), then read.
      const wait = startNotBefore - this.now();
      if (wait > 0 && !waited) {
        waited = true;
        await Promise.race([this.sleep(wait), new Promise<void>((begun) => this.onStart.push(begun))]);
        continue;
      }
      const read: Read = { generation: ++this.started, startedAt: this.now(), done: this.refresh() };
      this.current = read;
      for (const begun of this.onStart.splice(0)) begun();
      read.done.then(
        () => {
          if (this.current === read) this.current = null;
          if (!this.last || this.last.generation < read.generation) this.last = read;
        },
        () => {
          if (this.current === read) this.current = null;
        },
      );
      return read.done;
    }
  }
}
