/**
 * Why a seller's requests stop: thrown before a request is sent (nothing is spent), or built from
 * the API's own 429/401. The chunk processor turns it into a queue-wide pause (ARCHITECTURE.md, decision 1).
 */
export class SellerPausedError extends Error {
  override name = 'SellerPausedError';
  constructor(
    readonly reason: 'daily-limit' | 'daily-budget' | 'unauthorized',
    /** When the pause lifts by itself; null for a rejected key, which needs a person. */
    readonly until: number | null,
  ) {
    super(
      reason === 'unauthorized'
        ? 'the API key was rejected (401)'
        : `${reason === 'daily-budget' ? 'daily budget used up' : 'daily request limit reached'}, paused until ${new Date(until ?? 0).toISOString()}`,
    );
  }
}
