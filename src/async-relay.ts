/** What a relay does besides passing the items on (see `relay`). */
export interface RelayOptions<T, U> {
  /** Given out before the source's items, as they are. */
  first?: readonly U[];
  /** A synchronous step for each of the source's items; the identity when absent. */
  each?: (item: T) => U;
  /** The error to throw instead of one the source threw. */
  onError?: (error: unknown) => unknown;
  /** Runs once, when the source ends, throws, or is closed early (an async generator's `finally`). */
  onEnd?: () => Promise<void>;
}

/**
 * Passes a source's items on through a synchronous step, as an async generator of
 * `for await (const item of source) yield each(item)` would, with its `try/catch/finally`, but
 * without a generator between the two. Every record of a source goes through a chain of such
 * steps (byte checks, the first record read ahead, the sample, the raw values' capture), and a
 * generator costs several promises and a resume per item and step: ~80 ms per step for 300,000
 * items against ~20 ms for this one `then` (issue 12).
 *
 * Meant for one consumer reading one item at a time (`for await`), which is how sources are read.
 */
export function relay<T, U = T>(
  source: AsyncIterator<T>,
  options: RelayOptions<T, U> = {},
): AsyncIterableIterator<U> {
  const { each, onError, onEnd } = options;
  const first = options.first ?? [];
  let given = 0;
  let ended = false;
  const end = async (): Promise<void> => {
    if (ended) return;
    ended = true;
    await onEnd?.();
  };
  const done: IteratorReturnResult<undefined> = { done: true, value: undefined };
  const fail = async (error: unknown): Promise<never> => {
    await end();
    throw onError ? onError(error) : error;
  };
  const passed = (result: IteratorResult<T>): IteratorResult<U> | Promise<IteratorResult<U>> => {
    if (result.done) return end().then(() => done);
    if (!each) return result as unknown as IteratorResult<U>;
    try {
      return { done: false, value: each(result.value) };
    } catch (error) {
      // As a `for await` whose body throws, the source is closed first.
      return Promise.resolve(source.return?.())
        .catch(() => undefined)
        .then(() => fail(error));
    }
  };
  return {
    next(): Promise<IteratorResult<U>> {
      if (given < first.length) return Promise.resolve({ done: false, value: first[given++] as U });
      if (ended) return Promise.resolve(done);
      return source.next().then(passed, fail);
    },
    async return(): Promise<IteratorResult<U>> {
      given = first.length;
      if (!ended) {
        try {
          await source.return?.();
        } finally {
          await end();
        }
      }
      return done;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
