import type { CompactValue } from '../sync/compact-value.js';

/** What `--missing` recorded of a product before its deactivating PUT. */
export interface DeactivatedProduct {
  id: string;
  /** The values the `--missing` fields showed before (null: the product showed none). */
  former: Record<string, CompactValue | null>;
  /** The day of the deactivating PUT (UTC, `2026-11-27`); absent in a record from before it was kept. */
  at?: string;
  /** The values `--missing` set; absent in a record from before they were kept. */
  set?: Record<string, CompactValue>;
  /** The day a field of `set` was set where it is not `at`: a later night's `--missing` named it. */
  setOn?: Record<string, string>;
}
