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

/** How long a row's settle may wait for others, and how many rows are enough not to wait. */
export interface SettleHold {
  ms: number;
  rows: number;
}

/** A row of the chunk while it runs: it ends by settling (`add`) or without a settle (`end`). */
export interface RowTurn {
  add(outcomes: RowOutcome[], records: RowWrite[]): Promise<void>;
  end(): void;
}

/**
 * Rows that wrote settle soon after their write, each with its records (row-writes.ts), several in
 * one settle (issue 31: a settle's own commands, ~8, shared by its rows). A row's settle waits for
 * the settle on its way, and for other rows of the chunk still running, but never longer than
 * `hold.ms` after the first waiting row, nor once `hold.rows` rows wait, nor once no row of the chunk
 * is left running (the chunk's last rows go at once: the hold never delays a chunk's end). Answers
 * at 20 ms and 16 at once come one every ~1.3 ms: without a hold a settle carried 1–2 rows.
 *
 * What a worker killed mid-chunk leaves: the writes answered in the last `hold.ms` unrecorded, as the
 * writes still in flight are (up to `--concurrency` of them): their create claims stay with the dead
 * worker's token, so whoever takes the chunk looks for those products before creating (one list read
 * finds them all; create-claims.ts). The hold adds rows to that state, not a new state.
 */
export class SettleBatch {
  private waiting: Waiting[] = [];
  private waitingSince = 0;
  private sending = false;
  private running = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settle: Settle,
    private readonly hold: SettleHold = { ms: 0, rows: 1 },
  ) {}

  /** A row starts: settles may wait for it (within the hold) until it ends. */
  begin(): RowTurn {
    this.running++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      this.running--;
      this.consider();
    };
    return {
      add: (outcomes, records) => {
        const settled = this.add(outcomes, records);
        end();
        return settled;
      },
      end,
    };
  }

  /** Settles a row's outcomes and records with the rows that finish about now. */
  add(outcomes: RowOutcome[], records: RowWrite[]): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) this.waitingSince = Date.now();
      this.waiting.push({ outcomes, records, resolve, reject });
      this.consider();
    });
  }

  /** Sends the waiting rows when nothing holds them any longer; else waits for what does. */
  private consider(): void {
    if (this.sending || this.waiting.length === 0) return;
    const heldFor = Date.now() - this.waitingSince;
    if (this.running > 0 && this.waiting.length < this.hold.rows && heldFor < this.hold.ms) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.consider();
      }, this.hold.ms - heldFor);
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    // Sent on the next tick: rows resumed in this turn (answers read together) join it first.
    this.sending = true;
    process.nextTick(() => this.send());
  }

  private send(): void {
    const batch = this.waiting;
    this.waiting = [];
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
        // What finished meanwhile goes now, or when its hold ends.
        this.consider();
      });
  }
}
