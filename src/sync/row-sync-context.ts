import type { ProductFields, ProductUpsert } from '../interfaces.js';
import type { Logger } from '../logger.js';
import type { RowWrite } from '../runs/settle-batch.js';
import type { RetryPolicy, SellerApiClient } from '../seller-api/index.js';
import type { CreateClaims } from './create-claims.js';
import type { CreatedProductFinder } from './created-product-finder.js';
import type { DiffOptions, IndexedProduct } from './diff.js';
import type { IdMap, KnownProduct, Remembered } from './id-map.js';
import type { RemoteIndex } from './remote-index.js';

/** Everything one row's sync needs; one per run per process. */
export interface RowSyncContext {
  runId: string;
  client: SellerApiClient;
  index: RemoteIndex;
  idMap: IdMap;
  claims: CreateClaims;
  finder: CreatedProductFinder;
  dryRun: boolean;
  /** `--create-only-fields`: sent on POST, never in a PUT. */
  createOnly: ReadonlySet<string>;
  /** `--keep-remote-edits`: fields changed on the marketplace that are kept (see DiffOptions). */
  keepRemote?: ReadonlySet<string> | 'all';
  /** `--fields`: the fields sent, when not all (see DiffOptions). */
  sent?: ReadonlySet<string>;
  /** The run's match field: a listed key differing from the row's by edge spaces is the same key (DiffOptions). */
  matchBy: string;
  /** An `--incremental` run: unchanged rows are recorded too, so the next run needs no list read. */
  recordUnchanged: boolean;
  /** `--only create|update`: the rows that need the other write are skipped. */
  only?: 'create' | 'update' | null;
  /** Attempts for a write that fails with a retryable error (5xx, network, timeout). */
  retry: RetryPolicy;
  /**
   * What a write throws once its tries are used up (error-policy.ts `afterTries`, bound to the run's
   * base URL): a pause when no try reached the API. Absent: the error itself (the row fails).
   */
  afterTries?: (error: unknown, tries: readonly unknown[]) => unknown;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  logger: Logger;
  /**
   * When given (a chunk's write mode, chunk-rows.ts): what the row records in Redis after its last
   * request (the id map, the run's index) is queued here, and sent with the row's settle in one
   * step (its script), instead of in round trips of its own before it. Records that a later request of the row
   * relies on are still written at once.
   */
  rowWrites?: RowWrite[];
  /**
   * When given (a guarded run's writes, guards/held-at-write.ts): asked before an update is sent,
   * a create that became one included (its product made meanwhile by another run): the reason it
   * is held, or null. A dry run's (guards/dry-run-verdict.ts) is asked of each update it plans: the
   * note of one the real run would hold (it stays `planned`), or null.
   */
  heldUpdate?: HeldUpdate;
  /**
   * Set for one row (syncRow): its former key and the product the id map holds under it
   * (RowLookup.former). Recording the row's product under its key removes that entry.
   */
  former?: Remembered['former'];
  /**
   * Set for one row whose PUT answered 404 (row-sync.ts): the product's id. The id map keeps it under
   * the row's key until the create that replaces it is recorded, or fails for good: a base URL that
   * answers 404 to everything answers the PUT so too, and the create then stops the run.
   */
  gone?: string;
}

/** The reason an update of `remote` is held (nothing sent, the row settles `held`), or null to send it. */
export type HeldUpdate = (
  upsert: ProductUpsert,
  remote: IndexedProduct,
  fields: ProductFields,
  /** What this tool last sent the product: its price stands in for one not read (`remote.unread`). */
  known: KnownProduct | undefined,
) => Promise<string | null>;

/**
 * What a write's last failure becomes once its tries are used up (see `afterTries`); `tries`: each
 * try's failure, `error` last.
 */
export function givenUp(ctx: RowSyncContext, error: unknown, tries: readonly unknown[] = [error]): unknown {
  return ctx.afterTries ? ctx.afterTries(error, tries) : error;
}

/** The run's options of the diff (`--create-only-fields`, `--keep-remote-edits`, `--fields`, its match field). */
export function diffOptionsOf(
  ctx: Pick<RowSyncContext, 'createOnly' | 'keepRemote' | 'sent' | 'matchBy'>,
): DiffOptions {
  return {
    createOnly: ctx.createOnly,
    matchBy: ctx.matchBy,
    ...(ctx.keepRemote ? { keepRemote: ctx.keepRemote } : {}),
    ...(ctx.sent ? { sent: ctx.sent } : {}),
  };
}
