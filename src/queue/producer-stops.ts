import { countOf } from '../count-words.js';
import type { QueueRoom } from './queue-room.js';

// Why the producer stops reading its source before the end, and the wait that decides it: the
// queue's mark (decision 6) reached, a signal to stop, or a signal to leave the rest unread.

/** The producer's options that stop or hold its read (ProduceOptions). */
export interface ReadStops {
  /** Called while the producer waits for workers to drain the queue, with why they do not (or null). */
  onBackpressure?: (waitingJobs: number, sellerPause: string | null) => void;
  /**
   * Why the seller's workers send nothing now (daily limit, rejected key, API out of reach), or null.
   * The mark holds then too (issue 12): queueing the whole source would cost Redis and this process
   * memory in proportion to its size; the reason is only said to the user while the producer waits.
   */
  sellerPause?: () => Promise<string | null>;
  /** Stops reading the source (SIGINT/SIGTERM): produceChunks rejects with RunInterruptedError. */
  signal?: AbortSignal;
  /**
   * Once aborted, the producer stops when the queue is full instead of waiting (`run` that exits on a
   * pause): it rejects with SourceLeftUnreadError and leaves the run as it is. A source that fits
   * below the mark is still read to the end.
   */
  leaveUnread?: AbortSignal;
  /** Throws once Redis refused a write (full, read-only): the producer stops with that error. */
  assertHealthy?: () => void;
}

/**
 * The producer was told to stop before the source was read to the end. `rowsQueued`: the rows it
 * recorded (queued, or settled at once) before it stopped, its chunks under way written whole
 * (produceChunks says it; 0 where the stop is first met).
 */
export class RunInterruptedError extends Error {
  override name = 'RunInterruptedError';
  constructor(readonly rowsQueued = 0) {
    super('interrupted before the source was read to the end');
  }
}

/**
 * The producer was told to leave the rest of the source unread (the seller paused with the queue
 * full): the rows queued so far stay queued; the next import of the source ends the run and reads anew.
 */
export class SourceLeftUnreadError extends Error {
  override name = 'SourceLeftUnreadError';
  constructor(readonly rowsQueued: number) {
    super(`the source was left unread after ${countOf(rowsQueued, 'row')}`);
  }
}

/**
 * Waits until the seller's queue is below its mark; rejects when the producer is told to stop
 * (RunInterruptedError) or to leave the rest unread while the queue is full (SourceLeftUnreadError).
 */
export async function waitForRoom(
  room: QueueRoom,
  sleep: (ms: number) => Promise<void>,
  hooks: ReadStops,
  recorded: number,
): Promise<void> {
  for (;;) {
    if (hooks.signal?.aborted) throw new RunInterruptedError();
    hooks.assertHealthy?.();
    const waiting = await room.waiting();
    if (waiting === null || waiting < room.highWater) return;
    if (hooks.leaveUnread?.aborted) throw new SourceLeftUnreadError(recorded);
    // Asked only when someone listens: the reason costs a Redis round trip per look.
    if (hooks.onBackpressure) hooks.onBackpressure(waiting, (await hooks.sellerPause?.()) ?? null);
    await sleep(250);
  }
}
