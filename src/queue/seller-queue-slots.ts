import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { QUEUE_READS_PER_SECOND, REGISTRY_READ_MS } from '../defaults.js';
import { keysOnRefusedHosts, refusedHostLine } from '../sellers/refused-hosts.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { SellerInfo, SellerRegistry } from '../sellers/seller-registry.js';
import { heldKeys, servableSellers } from '../sellers/servable-sellers.js';
import type { TrustRules } from '../trust-rules.js';
import { promoteDelayedChunks } from './delayed-chunks.js';
import { hasWorkNow, type QueueReadiness, readQueueReadiness } from './queue-readiness.js';
import { DEFAULT_ROTATION, type RotationOptions, SellerRotation } from './seller-rotation.js';
import type { SellerWorkers } from './seller-workers.js';

export interface SellerQueueSlotsDeps {
  /** The tool's own connection: the queues' readiness is read on it. */
  redis: Redis;
  prefix: string;
  registry: SellerRegistry;
  workers: SellerWorkers;
  /** Where keys are read from (the environment, with `--keys-file`'s keys). */
  env: NodeJS.ProcessEnv;
  /**
   * Reads `--keys-file` again if it changed (keys-file-reload.ts): true when a key changed. Called
   * at each read, so that a key added or fixed in the file is served without a restart.
   */
  refreshKeys?: () => Promise<boolean>;
  /** The names whose key changed at the keys file's last read that changed any (keys-file-reload.ts). */
  changedKeyNames?: () => readonly string[];
  trust: TrustRules;
  logger: Logger;
  now: () => number;
  rotation?: RotationOptions;
  /**
   * Told of sellers this process can serve from now on (a seller registered by a first import): the
   * worker marks them served at once, not at its next renewal, so that the `import` that registered
   * one does not report that no worker holds its key.
   */
  onServable?: (added: readonly SellerInfo[]) => void;
  /**
   * Told of sellers this process stopped serving when a key changed in its keys file, the new key
   * linked to no seller yet (a rotated key that `resume` has not linked): the worker marks them, so
   * that `status` says to run `resume` rather than that no worker holds their key.
   */
  onKeyChangedUnlinked?: (lost: readonly SellerInfo[]) => void;
}

/**
 * The `worker` command's seller queues: reads which sellers it can serve (it holds their key) and
 * which of those have work, then attaches its few workers to them as SellerRotation decides.
 * The number of Redis connections stays fixed however many sellers are registered (issue 13).
 */
export class SellerQueueSlots {
  private readonly rotation: SellerRotation;
  private servable: SellerInfo[] = [];
  /** Sellers lost to a key changed in the keys file, the new key linked to no seller yet. */
  private keyChanged = new Set<string>();
  private registryReadAt = Number.NEGATIVE_INFINITY;
  /** The registry's size and its key links' at the last read: either changing means a read now. */
  private registryShape = '';
  private byQueue = new Map<string, SellerInfo>();
  private servableQueues = new Set<string>();
  private readonly releasing = new Set<Promise<void>>();
  private ticking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** The queues with work at the last read, less those that drained since. */
  private withWork = new Set<string>();
  private lastRead = new Map<string, QueueReadiness>();
  /** The sellers said to be held but not served (their API host not allowed), `host ref`: said once. */
  private refusedSaid = new Set<string>();

  constructor(private readonly deps: SellerQueueSlotsDeps) {
    this.rotation = new SellerRotation(deps.rotation ?? DEFAULT_ROTATION);
  }

  /** The sellers this process holds a key for, as last read (ref order). */
  get servableSellers(): readonly SellerInfo[] {
    return this.servable;
  }

  /** The sellers this process stopped serving when their key changed for one linked to no seller yet. */
  get keyChangedSellers(): string[] {
    return [...this.keyChanged];
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
   * Reads every `intervalMs` until `close`. In between, a served queue that drains or a slot that
   * frees is acted on at once from what the last read said (no Redis read: with thousands of sellers
   * a read is thousands of calls, and small runs end many times a second). A queue thought to have
   * work that has none drains at once and is let go; one whose work came meanwhile is seen at the
   * next read.
   */
  start(intervalMs: number): void {
    const next = () => {
      const wait = Math.max(intervalMs, (this.servable.length / QUEUE_READS_PER_SECOND) * 1000);
      this.timer = setTimeout(() => this.tickLogged().finally(() => this.timer && next()), wait);
    };
    next();
    this.deps.workers.onDrained = (queue) => {
      this.withWork.delete(queue);
      this.apply();
    };
  }

  private tickLogged(): Promise<void> {
    return this.tick().catch((error: unknown) =>
      this.deps.logger.warn({ err: String(error) }, 'could not read the seller queues'),
    );
  }

  /** Stops deciding; the queues let go finish closing (SellerWorkers.close closes the rest). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.deps.workers.onDrained = null;
    await this.ticking?.catch(() => undefined);
    await Promise.all(this.releasing);
  }

  private async decide(): Promise<void> {
    const { deps } = this;
    const now = deps.now();
    // A seller registered, a key linked to a seller (`resume` with a new key) or a key changed in
    // the keys file: which sellers this process can serve may have changed.
    const [registeredCount, linkedCount, keysChanged] = await Promise.all([
      deps.registry.registeredCount(),
      deps.registry.linkedCount(),
      deps.refreshKeys?.() ?? false,
    ]);
    const shape = `${registeredCount}:${linkedCount}`;
    if (now - this.registryReadAt >= REGISTRY_READ_MS || shape !== this.registryShape || keysChanged) {
      this.registryShape = shape;
      const registered = await deps.registry.registered();
      const keys = heldKeys(deps.env, deps.trust);
      const before = this.servable.length;
      const known = new Set(this.servable.map((seller) => seller.ref));
      this.servable = await servableSellers(deps.registry, registered, keys, deps.trust);
      const added = this.servable.filter((seller) => !known.has(seller.ref));
      if (added.length > 0) deps.onServable?.(added);
      await this.noteKeyChanged(registered, known, keysChanged);
      this.byQueue = new Map(this.servable.map((seller) => [seller.queueName, seller]));
      this.servableQueues = new Set(this.byQueue.keys());
      this.registryReadAt = now;
      await this.sayRefusedHosts(registered, keys, keysChanged);
      if (this.servable.length !== before)
        deps.logger.info(
          { registered: registered.length, served: this.servable.length },
          'sellers whose key this worker holds',
        );
    }
    const readiness = await Promise.all(
      this.servable.map((seller) => readQueueReadiness(deps.redis, deps.prefix, seller.queueName, now)),
    );
    this.withWork = new Set<string>();
    this.lastRead = new Map();
    this.servable.forEach((seller, i) => {
      const queue = readiness[i];
      if (!queue) return;
      this.lastRead.set(seller.queueName, queue);
      if (hasWorkNow(queue, now)) this.withWork.add(seller.queueName);
    });
    if (keysChanged) await this.promoteDelayed(now);
    this.apply();
  }

  /**
   * The sellers lost when a key changed in the keys file, when a changed variable now holds a key
   * linked to no seller (by its own fingerprint at the seller's base URL): a rotated key waiting for
   * `resume` to link it. Kept until the seller is served again or unregistered.
   */
  private async noteKeyChanged(
    registered: readonly SellerInfo[],
    before: ReadonlySet<string>,
    keysChanged: boolean,
  ): Promise<void> {
    const serving = new Set(this.servable.map((seller) => seller.ref));
    const known = new Set(registered.map((seller) => seller.ref));
    for (const ref of this.keyChanged) if (serving.has(ref) || !known.has(ref)) this.keyChanged.delete(ref);
    if (!keysChanged) return;
    const lost = registered.filter((seller) => before.has(seller.ref) && !serving.has(seller.ref));
    const keys = (this.deps.changedKeyNames?.() ?? [])
      .map((name) => this.deps.env[name]?.trim())
      .filter((key): key is string => key !== undefined && key !== '');
    if (lost.length === 0 || keys.length === 0) return;
    const unlinked: SellerInfo[] = [];
    for (const seller of lost) {
      const fingerprints = keys.map((key) => sellerRef(seller.baseUrl, key));
      const refs = await this.deps.registry.resolveRefs(fingerprints);
      if (refs.some((ref, i) => ref === fingerprints[i] && !known.has(ref))) unlinked.push(seller);
    }
    for (const seller of unlinked) this.keyChanged.add(seller.ref);
    if (unlinked.length > 0) this.deps.onKeyChangedUnlinked?.(unlinked);
  }

  /**
   * Says which sellers this worker holds a key for but will not serve, their API host not allowed
   * (refused-hosts.ts): at its first read, of a seller registered since, and all again when the keys
   * file was read again. Otherwise only each `import` would say, seconds later, that no worker holds
   * the key, and the worker's own log nothing.
   */
  private async sayRefusedHosts(
    registered: readonly SellerInfo[],
    keys: readonly string[],
    keysChanged: boolean,
  ): Promise<void> {
    if (keysChanged) this.refusedSaid.clear();
    for (const refused of await keysOnRefusedHosts(this.deps.registry, registered, keys, this.deps.trust)) {
      const sellers = refused.sellers.filter(
        (seller) => !this.refusedSaid.has(`${refused.host} ${seller.ref}`),
      );
      for (const seller of sellers) this.refusedSaid.add(`${refused.host} ${seller.ref}`);
      if (sellers.length > 0) this.deps.logger.warn(refusedHostLine({ host: refused.host, sellers }));
    }
  }

  /**
   * A key changed in the keys file: the chunks a worker put off for a minute, holding no usable key
   * for their run (a rejected one), are waiting now, so that the fixed key serves them at once
   * (delayed-chunks.ts); they have work at the next read.
   */
  private async promoteDelayed(now: number): Promise<void> {
    const { deps } = this;
    const delayed = this.servable.filter((seller) => {
      const due = this.lastRead.get(seller.queueName)?.nextDelayedAt;
      return due !== null && due !== undefined && due > now;
    });
    await Promise.all(
      delayed.map((seller) => promoteDelayedChunks(deps.redis, deps.prefix, seller.queueName)),
    );
  }

  /** Attaches and lets go as the rotation decides, from the last read and what happened since. */
  private apply(): void {
    const byQueue = this.byQueue;
    const step = this.rotation.step(this.withWork, this.servableQueues, this.deps.now());
    for (const queue of step.release) this.release(queue);
    for (const queue of step.attach) {
      const seller = byQueue.get(queue);
      if (seller) this.deps.workers.serve(seller);
      this.deps.logger.debug({ queue }, 'serving a seller queue');
    }
  }

  private release(queue: string): void {
    this.deps.logger.debug({ queue, lastRead: this.lastRead.get(queue) }, 'letting a seller queue go');
    const closing = this.deps.workers
      .release(queue)
      .catch((error: unknown) =>
        this.deps.logger.warn({ queue, err: String(error) }, 'a seller queue did not close cleanly'),
      )
      .finally(() => {
        this.rotation.released(queue);
        this.releasing.delete(closing);
        if (this.timer) this.apply();
      });
    this.releasing.add(closing);
  }
}
