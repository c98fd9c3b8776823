import { LOST_ROWS_LOOK_MAX_MS } from '../defaults.js';

/** What tells a run's progress: a row settled or counted is a move. */
export interface IdleRun {
  settled: number;
  total: number;
}

/**
 * When to look for a run's rows that nothing holds (lost-chunks.ts): only once the run has not moved
 * (no row settled, none counted) for `idleMs`, the time a killed worker's chunk takes to come back
 * (its lock and a stall check): until then a chunk that seems gone may be on its way back. A run
 * that stays idle with its rows held (a seller paused for the day) is looked at again after twice
 * as long each time, up to LOST_ROWS_LOOK_MAX_MS, so that a paused run costs Redis little; one that
 * moves starts over. No look, and no Redis command, while the run moves.
 */
export class LostRowsWatch {
  private seen: string | null = null;
  private since = 0;
  private waitMs: number;

  constructor(
    private readonly idleMs: number,
    /** Given the run as observed and the time to the next look if it stays idle (fleet-lost-rows.ts). */
    private readonly look: (run: IdleRun, untilNextMs: number) => Promise<unknown>,
    private readonly now: () => number = Date.now,
    private readonly maxWaitMs = LOST_ROWS_LOOK_MAX_MS,
  ) {
    this.waitMs = idleMs;
  }

  /**
   * True when `observe` would look now: the run has not moved and has been idle long enough. No
   * state changes: a caller asks it before a read that only a look needs (its seller's pause).
   */
  due(run: IdleRun): boolean {
    return `${run.settled}/${run.total}` === this.seen && this.now() - this.since >= this.waitMs;
  }

  /** Called with each read of the run: looks (and resolves once done) when it has been idle long enough. */
  async observe(run: IdleRun): Promise<void> {
    const at = this.now();
    const progress = `${run.settled}/${run.total}`;
    if (progress !== this.seen) {
      this.seen = progress;
      this.since = at;
      this.waitMs = this.idleMs;
      return;
    }
    if (at - this.since < this.waitMs) return;
    const next = Math.min(this.waitMs * 2, Math.max(this.maxWaitMs, this.idleMs));
    await this.look(run, next);
    this.since = this.now();
    this.waitMs = next;
  }
}
