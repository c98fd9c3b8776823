/** What a scrape got from Redis: the value read, or nothing (it failed, or did not answer in time). */
export type ReadOutcome<T> = { read: true; value: T } | { read: false };

/**
 * A read of Redis for a scrape, waited for at most `ms`: a Redis that does not answer (paused, a
 * cluster whose master is gone: its commands are retried for CATALOG_SYNC_REDIS_DEADLINE_MS) must not
 * hold the scrape past Prometheus's own timeout (10 s by default), which would lose the counters too.
 * The read left unanswered is not sent again: the scrapes that come while it is under way wait for
 * it, so a Redis frozen for an hour holds one read, not one per scrape.
 */
export class BoundedRead<T> {
  #underWay: Promise<T> | null = null;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly ms: number,
  ) {}

  async within(): Promise<ReadOutcome<T>> {
    this.#underWay ??= this.read().finally(() => {
      this.#underWay = null;
    });
    const underWay = this.#underWay;
    // Rejections reach the race below; this keeps a read that ends after its deadline quiet.
    underWay.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<ReadOutcome<T>>((resolve) => {
      timer = setTimeout(() => resolve({ read: false }), this.ms);
    });
    try {
      return await Promise.race([
        underWay.then(
          (value): ReadOutcome<T> => ({ read: true, value }),
          (): ReadOutcome<T> => ({ read: false }),
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
