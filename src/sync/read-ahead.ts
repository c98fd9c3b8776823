/**
 * Calls `each` for every item of `source`, in order and one at a time, while the next item is
 * already being fetched: a list read writes page n to Redis while page n+1 is on its way (issue 12).
 * The fetch never waits for a write unless the write of the item before is still running: so a
 * slow Redis answer does not hold the pages back, and at most two items are held (the one handled
 * and the next, waiting for it) besides the one on its way: memory stays flat whatever the length
 * of the source. A failure of `each` or of the source rejects, as a plain loop would, once the
 * `each` under way has settled.
 */
export async function forEachReadingAhead<T>(
  source: AsyncIterable<T>,
  each: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let next = askedFor(iterator);
  let handling: Promise<void> | null = null;
  try {
    for (;;) {
      const result = await next;
      if (result.done) break;
      next = askedFor(iterator);
      if (handling) await handling;
      handling = each(result.value);
      // Awaited before the next item is handled or the loop ends: not an unhandled rejection.
      handling.catch(() => undefined);
    }
    await handling;
  } catch (error) {
    // Nothing is left half done behind the caller's back: the `each` under way settles first, and
    // its failure is the one a plain loop would have met first (before the next item's).
    const earlier = await handling?.then(
      () => null,
      (failure: unknown) => ({ failure }),
    );
    // The item asked for no longer matters, but must not end as an unhandled rejection, and the
    // source is closed once it has come.
    next.then(
      () => iterator.return?.()?.catch(() => undefined),
      () => undefined,
    );
    throw earlier ? earlier.failure : error;
  }
}

/**
 * The next item, asked for now and awaited later: it may fail (a list past a cap of the API's
 * answers) while the item before is still being written, and a rejection without a handler until
 * then killed the process (an uncaught AnswerCapError, exit 1, the run left `running`). The handler
 * added here only marks it handled: the loop still awaits it and meets its failure.
 */
function askedFor<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T>> {
  const asked = iterator.next();
  asked.catch(() => undefined);
  return asked;
}
