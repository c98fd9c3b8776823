import { STALL_MIN_BYTES } from '../../defaults.js';
import { formatDuration } from '../../duration.js';
import { sourceError } from '../source-error.js';
import { StallWatch } from '../stall-watch.js';

/** What a stalled read is ended on: the request before the answer's head, the answer after it. */
interface Destroyable {
  destroy(error?: Error): unknown;
}

/**
 * `--source-timeout` on a store's calls: the stall rule of a feed (stall-watch.ts; CONTRACT, "silent
 * or trickling"), not an idle time-out, which a store sending a byte now and then never meets. No
 * answer at all is said as such; an answer that came and then trickles as less than 1 KiB in the
 * window. The error is a SourceError, never tried again (store-tries.ts): the user's bound.
 */
export class StoreStall {
  readonly watch: StallWatch;
  private target: Destroyable | undefined;
  private answered = false;

  constructor(
    label: string,
    windowMs: number,
    /** `the store`, `the result file`: what the message says stalled. */
    what: string,
  ) {
    this.watch = new StallWatch(windowMs, () => {
      const window = formatDuration(windowMs);
      this.target?.destroy(
        sourceError(
          label,
          this.answered
            ? `${what} sent less than ${STALL_MIN_BYTES / 1024} KiB in ${window} (--source-timeout): it stalls or trickles`
            : `${what} did not answer within ${window} (--source-timeout)`,
        ),
      );
    });
  }

  /** What a stall ends from now on; `answered` once the answer's head came. */
  watching(target: Destroyable, answered: boolean): void {
    this.target = target;
    this.answered = answered;
  }

  /**
   * The answer's chunks, each wait for one watched (the clock runs only while this side waits: a
   * consumer busy elsewhere holds the read back, and the store cannot stall then).
   */
  async *chunksOf(answer: AsyncIterable<unknown> & Destroyable): AsyncGenerator<Buffer> {
    this.watching(answer, true);
    const reader = answer[Symbol.asyncIterator]();
    for (;;) {
      this.watch.startWaiting();
      let next: IteratorResult<unknown>;
      try {
        next = await reader.next();
      } finally {
        this.watch.stopWaiting();
      }
      if (next.done) return;
      const chunk = next.value as Buffer;
      this.watch.received(chunk.length);
      yield chunk;
    }
  }

  dispose(): void {
    this.watch.dispose();
  }
}
