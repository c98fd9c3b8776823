import type { ProductFields } from '../interfaces.js';
import { compactEquals, compactFields } from './compact-value.js';
import type { IndexedProduct } from './diff.js';
import type { UnkeyedProduct } from './remote-index.js';

/**
 * Finds the product a create made when its answer was lost (docs/architecture.md, decision 4).
 *
 * A lost answer means re-reading the seller's products. Those reads are shared: every row that
 * asks while one is running joins it, as long as that read began after the row's answer was lost
 * (an earlier read may predate the write).
 */
export class CreatedProductFinder {
  private started = 0;
  private current: { generation: number; done: Promise<UnkeyedProduct[]> } | null = null;
  private readonly claimed = new Set<string>();

  constructor(
    /** Re-reads every page into the run's index; resolves to the products without a known key. */
    private readonly refresh: () => Promise<UnkeyedProduct[]>,
    /** The product indexed under a match key, after a refresh. */
    private readonly byKey: (key: string) => Promise<IndexedProduct | null>,
    private readonly matchBy: string,
  ) {}

  /** Call when the answer was lost, before any await: it fixes which reads are recent enough. */
  mark(): number {
    return this.started;
  }

  async find(key: string, fields: ProductFields, markedAt: number): Promise<IndexedProduct | null> {
    const unkeyed = await this.refreshAfter(markedAt);
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

  private async refreshAfter(markedAt: number): Promise<UnkeyedProduct[]> {
    for (;;) {
      const current = this.current;
      if (current && current.generation > markedAt) return current.done;
      if (current) {
        await current.done.catch(() => undefined);
        continue;
      }
      const generation = ++this.started;
      const done = this.refresh().finally(() => {
        if (this.current?.generation === generation) this.current = null;
      });
      this.current = { generation, done };
      return done;
    }
  }
}
