import { SELLER_ROTATION } from '../defaults.js';

/**
 * Which seller queues a `worker` serves at a time (issue 13; docs/many-sellers.md). Each served queue
 * holds a BullMQ Worker and its blocking Redis connection, so a
 * process serves at most `slots` queues, whatever the number of sellers: those with work now,
 * longest waiting first. A seller that keeps its slot past `sliceMs` while another waits gives it up
 * (its jobs in progress finish first) and queues again behind the others: a seller with 200,000
 * rows cannot starve one with 20. A queue with no work for `idleMs` is let go.
 * Pure: it decides, the caller attaches and releases (seller-queue-slots.ts).
 */

export interface RotationOptions {
  /** Seller queues served at once by this process (each a blocking connection). */
  slots: number;
  /** How long a seller keeps its slot while another seller with work waits for one. */
  sliceMs: number;
  /** How long a served queue may have no work before its slot is let go. */
  idleMs: number;
}

export const DEFAULT_ROTATION: RotationOptions = SELLER_ROTATION;

export interface RotationStep {
  attach: string[];
  release: string[];
}

interface Served {
  since: number;
  idleSince: number | null;
}

export class SellerRotation {
  private readonly served = new Map<string, Served>();
  /** Queues let go whose jobs in progress are still finishing: their slots are not free yet. */
  private readonly closing = new Set<string>();
  /** When each queue with work and no slot started to wait, in that order: the longest waiting goes first. */
  private readonly waitingSince = new Map<string, number>();

  constructor(private readonly options: RotationOptions = DEFAULT_ROTATION) {}

  /**
   * One decision, given the queues that have work now (`withWork`, any order) among those this
   * process may serve (`servable`: a queue no longer servable is let go).
   */
  step(withWork: ReadonlySet<string>, servable: ReadonlySet<string>, now: number): RotationStep {
    for (const queue of this.waitingSince.keys()) {
      if (!withWork.has(queue) || !servable.has(queue)) this.waitingSince.delete(queue);
    }
    for (const queue of withWork) {
      if (servable.has(queue) && !this.served.has(queue) && !this.closing.has(queue))
        if (!this.waitingSince.has(queue)) this.waitingSince.set(queue, now);
    }
    // A served queue with no work left is let go at once when another waits, else after idleMs.
    const release: string[] = [];
    for (const [queue, state] of this.served) {
      if (!servable.has(queue)) {
        release.push(queue);
      } else if (withWork.has(queue)) {
        state.idleSince = null;
      } else {
        state.idleSince ??= now;
        if (this.waitingSince.size > 0 || now - state.idleSince >= this.options.idleMs) release.push(queue);
      }
    }
    for (const queue of release) this.letGo(queue);

    // The map's order is the order queues started to wait (each is set once, at its `now`, and a
    // queue that waits again is deleted first): no sort of thousands of queues at every event.
    const free = Math.max(0, this.options.slots - this.served.size - this.closing.size);
    const attach: string[] = [];
    for (const queue of this.waitingSince.keys()) {
      if (attach.length >= free) break;
      attach.push(queue);
    }
    const waitingCount = this.waitingSince.size;
    for (const queue of attach) {
      this.waitingSince.delete(queue);
      this.served.set(queue, { since: now, idleSince: null });
    }
    // Still waiting with no slot free: the sellers served longest past their slice make room.
    const stillWaiting = waitingCount - attach.length - this.closing.size;
    if (stillWaiting > 0) {
      const overdue = [...this.served.entries()]
        .filter(([, state]) => now - state.since >= this.options.sliceMs)
        .sort(([a, x], [b, y]) => x.since - y.since || a.localeCompare(b))
        .slice(0, stillWaiting)
        .map(([queue]) => queue);
      for (const queue of overdue) {
        this.letGo(queue);
        // Still has work: it waits again, behind those that waited while it was served.
        this.waitingSince.delete(queue);
        this.waitingSince.set(queue, now);
        release.push(queue);
      }
    }
    return { attach, release };
  }

  /** The caller finished releasing `queue` (its worker closed): its slot is free. */
  released(queue: string): void {
    this.closing.delete(queue);
  }

  /** Queues served now, in the order they were attached. */
  get servedQueues(): string[] {
    return [...this.served.keys()];
  }

  private letGo(queue: string): void {
    this.served.delete(queue);
    this.closing.add(queue);
  }
}
