import type { RowOutcome } from '../interfaces.js';
import type { WriteList } from '../redis/write-list.js';

/**
 * What a row records in Redis after a write (the seller's id map, the run's index). In a chunk's
 * write mode (`rowWrites` given) it is held and goes in the script that settles the row: one round
 * trip, and all of it or none; elsewhere it is written at once (sync/row-writes.ts). The seam is
 * the run's: sync/ writes through it, runs/ owns the settle.
 *
 * A record is an item for a write gathered over every row of the settle (issue 31): the rows of one
 * settle cost a command per hash they write, not one per row. `to` writes them all, in their order.
 */
export interface RowWrite<T = unknown> {
  to: GatheredWrite<T>;
  item: T;
}

/** Adds the items of many rows to the writes of one step, in a handful of commands. */
export interface GatheredWrite<T> {
  write(writes: WriteList, items: readonly T[]): void;
}

/** A row's record for `to`. */
export function rowWrite<T>(to: GatheredWrite<T>, item: T): RowWrite {
  return { to, item } as RowWrite;
}

/** Adds the records to `writes`: each gathered write once, with its items in the rows' order. */
export function gatherRowWrites(writes: WriteList, records: readonly RowWrite[]): void {
  const gathered = new Map<GatheredWrite<unknown>, unknown[]>();
  for (const { to, item } of records) {
    const items = gathered.get(to);
    if (items) items.push(item);
    else gathered.set(to, [item]);
  }
  for (const [to, items] of gathered) to.write(writes, items);
}

type Settle = (outcomes: RowOutcome[], records: RowWrite[]) => Promise<void>;

interface Waiting {
  outcomes: RowOutcome[];
  records: RowWrite[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Rows that wrote settle right after their write, each with its records (row-writes.ts); those
 * that finish together settle together (issue 12, "work per row"): the rows asked for in one turn
 * of the event loop, and those that finish while the chunk's last settle is on its way, go in one
 * settle. A row waits at most for the settle ahead of it, never for a timer, so a worker killed
 * mid-chunk leaves no more unrecorded writes than before: the writes of rows whose answers are in,
 * recorded in the next round trip (their claims make the next claimer look first).
 */
export class SettleBatch {
  private waiting: Waiting[] = [];
  private sending = false;

  constructor(private readonly settle: Settle) {}

  add(outcomes: RowOutcome[], records: RowWrite[]): Promise<void> {
    return new Promise((resolve, reject) => {
      // Sent on the next tick: rows resumed in this turn (answers read together) join it first.
      if (this.waiting.length === 0 && !this.sending) process.nextTick(() => this.send());
      this.waiting.push({ outcomes, records, resolve, reject });
    });
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
    if (batch.length === 0) return;
    this.sending = true;
    this.settle(
      batch.flatMap((row) => row.outcomes),
      batch.flatMap((row) => row.records),
    )
      .then(
        () => {
          for (const row of batch) row.resolve();
        },
        (error: unknown) => {
          for (const row of batch) row.reject(error);
        },
      )
      .finally(() => {
        this.sending = false;
        // What finished meanwhile goes now, in one settle.
        this.send();
      });
  }
}
