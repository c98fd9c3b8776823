import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { TrustRules } from '../trust-rules.js';
import { hasWorkNow, type QueueReadiness, readQueueReadiness } from './queue-readiness.js';
import { DEFAULT_ROTATION, type RotationOptions, SellerRotation } from './seller-rotation.js';
import type { SellerInfo, SellerState } from './seller-state.js';
import type { SellerWorkers } from './seller-workers.js';
import { heldKeys, servableSellers } from './servable-sellers.js';

/** How often the registry of sellers is read again (a seller registered by `import` shows up). */
const REGISTRY_READ_MS = 2000;
/** The least time between a tick and an early one (a queue drained, a slot freed). */
const SOON_GAP_MS = 200;

export interface SellerQueueSlotsDeps {
  /** The tool's own connection: the queues' readiness is read on it. */
  redis: Redis;
  prefix: string;
  sellers: SellerState;
  workers: SellerWorkers;
  /** Where keys are read from (the environment, with `--keys-file`'s keys). */
  env: NodeJS.ProcessEnv;
  trust: TrustRules;
  logger: Logger;
  now: () => number;
  rotation?: RotationOptions;
}

/**
 * The `worker` command's seller queues: reads which sellers it can serve (it holds their key) and
 * which of those have work, then attaches its few workers to them as SellerRotation decides.
 * The number of Redis connections stays fixed however many sellers are registered (issue 13).
 */
export class SellerQueueSlots {
  private readonly rotation: SellerRotation;
  private servable: SellerInfo[] = [];
  private registryReadAt = Number.NEGATIVE_INFINITY;
  private readonly releasing = new Set<Promise<void>>();
  private ticking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private soonPending = false;
  private tickStartedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: SellerQueueSlotsDeps) {
    this.rotation = new SellerRotation(deps.rotation ?? DEFAULT_ROTATION);
  }

  /** The sellers this process holds a key for, as last read (ref order). */
  get servableSellers(): readonly SellerInfo[] {
    return this.servable;
  }

  /** Queues served now. */
  get servedQueues(): string[] {
    return this.rotation.servedQueues;
  }

  /** Reads and decides once; a tick still running is waited for instead of starting another. */
  tick(): Promise<void> {
    this.ticking ??= this.decide().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /**
   * Ticks every `intervalMs` until `close`, and soon after a served queue drains or a slot frees:
   * a seller waiting for a slot gets it without waiting for the next tick.
   */
  start(intervalMs: number): void {
    this.timer = setInterval(() => this.tickLogged(), intervalMs);
    this.deps.workers.onDrained = () => this.soon();
  }

  private soon(): void {
    if (this.soonPending || !this.timer) return;
    this.soonPending = true;
    // At most one early tick per SOON_GAP_MS: with thousands of sellers a tick is thousands of reads,
    // and busy queues drain often.
    const wait = Math.max(0, this.tickStartedAt + SOON_GAP_MS - this.deps.now());
    setTimeout(() => {
      this.soonPending = false;
      // A tick running now read the queues before this: one more follows it.
      (this.ticking ?? Promise.resolve()).then(
        () => this.tickLogged(),
        () => this.tickLogged(),
      );
    }, wait).unref();
  }

  private tickLogged(): void {
    this.tick().catch((error: unknown) =>
      this.deps.logger.warn({ err: String(error) }, 'could not read the seller queues'),
    );
  }

  /** Stops deciding; the queues let go finish closing (SellerWorkers.close closes the rest). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.deps.workers.onDrained = null;
    await this.ticking?.catch(() => undefined);
    await Promise.all(this.releasing);
  }

  private async decide(): Promise<void> {
    const { deps } = this;
    const now = deps.now();
    this.tickStartedAt = now;
    if (now - this.registryReadAt >= REGISTRY_READ_MS) {
      const registered = await deps.sellers.registered();
      const keys = heldKeys(deps.env, deps.trust);
      const before = this.servable.length;
      this.servable = await servableSellers(deps.sellers, registered, keys, deps.trust);
      this.registryReadAt = now;
      if (this.servable.length !== before)
        deps.logger.info(
          { registered: registered.length, served: this.servable.length },
          'sellers whose key this worker holds',
        );
    }
    const byQueue = new Map(this.servable.map((seller) => [seller.queueName, seller]));
    const readiness = await Promise.all(
      this.servable.map((seller) => readQueueReadiness(deps.redis, deps.prefix, seller.queueName, now)),
    );
    const withWork = new Set<string>();
    this.servable.forEach((seller, i) => {
      const queue = readiness[i];
      if (queue && hasWorkNow(queue, now)) withWork.add(seller.queueName);
    });
    const step = this.rotation.step(withWork, new Set(byQueue.keys()), now);
    for (const queue of step.release) {
      const i = this.servable.findIndex((seller) => seller.queueName === queue);
      this.release(queue, i >= 0 ? readiness[i] : undefined);
    }
    for (const queue of step.attach) {
      const seller = byQueue.get(queue);
      if (seller) deps.workers.serve(seller);
      deps.logger.debug({ queue }, 'serving a seller queue');
    }
  }

  private release(queue: string, readiness?: QueueReadiness): void {
    this.deps.logger.debug({ queue, readiness }, 'letting a seller queue go');
    const closing = this.deps.workers
      .release(queue)
      .catch((error: unknown) =>
        this.deps.logger.warn({ queue, err: String(error) }, 'a seller queue did not close cleanly'),
      )
      .finally(() => {
        this.rotation.released(queue);
        this.releasing.delete(closing);
        this.soon();
      });
    this.releasing.add(closing);
  }
}
