/** Counts of the requests the API answered (the `/__sandbox` seam is never counted). */
export interface SandboxStats {
  total: number;
  /** By `${METHOD} ${path}`, path relative to /api/v1 without the query: 'POST /products'. */
  byRoute: Record<string, number>;
  /** By status code; a dropped response is counted under 'dropped'. */
  byStatus: Record<string, number>;
  /** Requests with a valid key, by seller. */
  bySeller: Record<string, number>;
  /** Answers 429. */
  rateLimited: number;
  /** Creates and updates applied to the store, including those whose response was dropped. */
  writesApplied: number;
  /** Responses destroyed on purpose after the write was applied. */
  dropped: number;
  /**
   * The most API requests in flight at once (from arrival to answer): how many a client kept
   * going. A client sending one request at a time shows 1, whatever the latency.
   */
  maxInFlight: number;
}

export class StatsRecorder {
  #stats: SandboxStats = emptyStats();
  #inFlight = 0;

  /** An API request arrived; call `record` once it is answered. */
  arrived(): void {
    this.#inFlight += 1;
    this.#stats.maxInFlight = Math.max(this.#stats.maxInFlight, this.#inFlight);
  }

  record(route: string, status: number | 'dropped', seller: string | undefined): void {
    const stats = this.#stats;
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    stats.total += 1;
    stats.byRoute[route] = (stats.byRoute[route] ?? 0) + 1;
    stats.byStatus[String(status)] = (stats.byStatus[String(status)] ?? 0) + 1;
    if (seller !== undefined) stats.bySeller[seller] = (stats.bySeller[seller] ?? 0) + 1;
    if (status === 429) stats.rateLimited += 1;
    if (status === 'dropped') stats.dropped += 1;
  }

  writeApplied(): void {
    this.#stats.writesApplied += 1;
  }

  snapshot(): SandboxStats {
    return structuredClone(this.#stats);
  }

  reset(): void {
    this.#stats = emptyStats();
    // Requests in flight now are still counted: their answers come after the reset.
    this.#stats.maxInFlight = this.#inFlight;
  }
}

function emptyStats(): SandboxStats {
  return {
    total: 0,
    byRoute: {},
    byStatus: {},
    bySeller: {},
    rateLimited: 0,
    writesApplied: 0,
    dropped: 0,
    maxInFlight: 0,
  };
}
