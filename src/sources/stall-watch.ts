import { STALL_BUCKETS, STALL_MIN_BYTES } from '../defaults.js';

/** Runs `check` once, `ms` from now; returns how to cancel it. Tests pass one they step by hand. */
export type StallTimer = (check: () => void, ms: number) => () => void;

const realTimer: StallTimer = (check, ms) => {
  // The check waits for the I/O already due: after the event loop was held up (a busy process),
  // bytes that did come are counted before the window is judged.
  const timer = setTimeout(() => setImmediate(check), ms);
  timer.unref?.();
  return () => clearTimeout(timer);
};

/**
 * The stall rule of a feed (`--source-timeout`, README: Options of `run` and `import`): less than 1 KiB in
 * any window of that
 * length ends the read. An idle time-out alone misses a trickle (one byte every 20 s is never idle
 * for 30 s); this counts bytes per window instead.
 *
 * The clock runs only while this side waits for bytes: while the run is busy elsewhere (workers
 * draining the queue hold the reader back), the feed is not asked for anything and cannot stall.
 * Times below are that waiting time, in ms.
 */
export class StallWatch {
  private waited = 0;
  private waitingSince: number | undefined;
  /** Bytes by (waiting) time of arrival, oldest first; only the last window's are kept. */
  private arrivals: Array<{ at: number; bytes: number }> = [];
  private cancelTimer: (() => void) | undefined;
  /** Bumped by every schedule and clear: a check from an older timer does nothing. */
  private generation = 0;
  private stalled = false;

  constructor(
    private readonly windowMs: number,
    private readonly onStall: () => void,
    private readonly now: () => number = () => performance.now(),
    private readonly timer: StallTimer = realTimer,
  ) {}

  /** This side is waiting for bytes (the answer's head, or the next piece of the body). */
  startWaiting(): void {
    if (this.stalled || this.waitingSince !== undefined) return;
    this.waitingSince = this.now();
    this.schedule();
  }

  /** The wait is over (bytes came, or the read is done). */
  stopWaiting(): void {
    if (this.waitingSince === undefined) return;
    this.waited += this.now() - this.waitingSince;
    this.waitingSince = undefined;
    this.clear();
  }

  received(bytes: number): void {
    if (bytes <= 0) return;
    const at = this.clock();
    const last = this.arrivals.at(-1);
    if (last && at - last.at < this.windowMs / STALL_BUCKETS) {
      last.at = at;
      last.bytes += bytes;
    } else {
      this.arrivals.push({ at, bytes });
    }
    while (this.arrivals.length > 0 && this.arrivals[0]!.at <= at - this.windowMs) this.arrivals.shift();
    if (this.waitingSince !== undefined) this.schedule();
  }

  /** Stops the timer for good (the read ended or failed). */
  dispose(): void {
    this.stalled = true;
    this.clear();
  }

  private clock(): number {
    return this.waited + (this.waitingSince === undefined ? 0 : this.now() - this.waitingSince);
  }

  /** The earliest waiting time at which the last window holds less than the minimum. */
  private stallAt(): number {
    let sum = 0;
    for (let i = this.arrivals.length - 1; i >= 0; i--) {
      const arrival = this.arrivals[i]!;
      sum += arrival.bytes;
      if (sum >= STALL_MIN_BYTES) return Math.max(this.windowMs, arrival.at + this.windowMs);
    }
    return this.windowMs;
  }

  private schedule(): void {
    this.clear();
    const delay = Math.max(0, this.stallAt() - this.clock());
    const generation = this.generation;
    this.cancelTimer = this.timer(() => this.check(generation), Math.ceil(delay));
  }

  private check(generation: number): void {
    if (generation !== this.generation) return;
    this.cancelTimer = undefined;
    if (this.stalled || this.waitingSince === undefined) return;
    if (this.clock() + 0.5 >= this.stallAt()) {
      this.stalled = true;
      this.onStall();
    } else {
      this.schedule();
    }
  }

  private clear(): void {
    this.generation++;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }
}
