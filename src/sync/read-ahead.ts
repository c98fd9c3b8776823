/**
 * Calls `each` for every item of `source`, in order, one at a time, while the next item is already
 * being fetched: a list read writes page n to Redis while page n+1 is on its way (issue 12). At most
 * two items are held, the one handled and the one asked for, so memory stays flat whatever the
 * length of the source. A failure of `each` or of the source rejects, as a plain loop would.
 */
export async function forEachReadingAhead<T>(
  source: AsyncIterable<T>,
  each: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const result = await next;
      if (result.done) return;
      next = iterator.next();
      await each(result.value);
    }
  } catch (error) {
    // `each` failed while the next item was asked for: its outcome no longer matters, but it must
    // not end as an unhandled rejection, and the source is closed once it has settled.
    next.then(
      () => iterator.return?.()?.catch(() => undefined),
      () => undefined,
    );
    throw error;
  }
}
