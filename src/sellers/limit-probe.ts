/**
 * Past the seller's learned daily limit, this process sends one request at a time (issue 31): that
 * request (the probe) either passes, and the limit was higher than learned, or meets the 429 that
 * says when the limit resets, and the pause it brings stops the requests waiting behind it before
 * they are sent. So crossing a learned limit costs one 429 (per process), where it cost one per
 * request in flight.
 *
 * The probe leaves once every other request of the seller sent by this process is answered: they
 * were counted before it, and one answered after it could take the last request of the day and
 * leave the 429 to itself, teaching a limit one too low.
 */
export class LimitProbes {
  /** Requests of the seller in flight here, the probe not included. */
  private readonly inFlight = new Map<string, number>();
  private readonly probing = new Set<string>();
  private readonly waiters = new Map<string, Array<() => void>>();

  /** A request within the limit leaves; call the result once it is answered (or failed). */
  sending(ref: string): () => void {
    this.inFlight.set(ref, (this.inFlight.get(ref) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.inFlight.get(ref) ?? 1) - 1;
      if (left > 0) this.inFlight.set(ref, left);
      else this.inFlight.delete(ref);
      this.wake(ref);
    };
  }

  /** True while a probe of the seller is under way here. */
  busy(ref: string): boolean {
    return this.probing.has(ref);
  }

  /** Resolves once no probe of the seller is in flight here. */
  async whileProbing(ref: string): Promise<void> {
    while (this.probing.has(ref)) await this.change(ref);
  }

  /**
   * Makes the caller's request the seller's probe, once the requests in flight before it are
   * answered; null when another request is the probe. Call the result once the probe is answered.
   */
  async probe(ref: string): Promise<(() => void) | null> {
    if (this.probing.has(ref)) return null;
    this.probing.add(ref);
    while ((this.inFlight.get(ref) ?? 0) > 0) await this.change(ref);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.probing.delete(ref);
      this.wake(ref);
    };
  }

  private change(ref: string): Promise<void> {
    return new Promise((resolve) => {
      const list = this.waiters.get(ref) ?? [];
      list.push(resolve);
      this.waiters.set(ref, list);
    });
  }

  private wake(ref: string): void {
    const list = this.waiters.get(ref);
    this.waiters.delete(ref);
    for (const resolve of list ?? []) resolve();
  }
}
