import { LOST_ROWS_LOOK_MAX_MS } from '../defaults.js';

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
    private readonly look: () => Promise<unknown>,
    private readonly now: () => number = Date.now,
    private readonly maxWaitMs = LOST_ROWS_LOOK_MAX_MS,
  ) {
    this.waitMs = idleMs;
  }

  /** Called with each read of the run: looks (and resolves once done) when it has been idle long enough. */
  async observe(run: { settled: number; total: number }): Promise<void> {
    const at = this.now();
    const progress = `${run.settled}/${run.total}`;
    if (progress !== this.seen) {
      this.seen = progress;
      this.since = at;
      this.waitMs = this.idleMs;
      return;
    }
    if (at - this.since < this.waitMs) return;
    await this.look();
    this.since = this.now();
    this.waitMs = Math.min(this.waitMs * 2, Math.max(this.maxWaitMs, this.idleMs));
  }
}
