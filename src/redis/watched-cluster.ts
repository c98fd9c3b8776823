import type { ChainableCommander, ClusterNode, ClusterOptions, Command } from 'ioredis';
import { ioredis } from '../cjs-packages.js';
import { rideMigrations } from './migration-pipeline.js';
import { migrationReplyOf, tryAgainDelayMs } from './migration-replies.js';

/** ioredis's count of one command's (or pipeline's) redirections left, when the first was met, its TRYAGAINs. */
interface Redirections {
  value?: number;
  since?: number;
  tryAgains?: number;
}

/** ioredis's handlers of a command's redirection (cluster/index.js), the one this file calls itself. */
interface RedirectionHandlers {
  tryagain: () => void;
}

/** ioredis's queue of delayed retries, a field its types call private. */
interface DelayQueue {
  push(bucket: string, item: () => void, options: { timeout: number }): void;
}

/** ioredis's words for a command on a connection that closed. */
const CONNECTION_CLOSED = 'Connection is closed.';

/**
 * Per cluster, settled by its next 'ready' or 'end', shared by the connect() calls until then. Not a
 * field: ioredis's constructor calls connect() (unless lazyConnect) before fields exist.
 */
const readyOrEnd = new WeakMap<WatchedCluster, Promise<void>>();

/**
 * WatchedRedis (connect.ts) for a cluster: every command Redis answers with an error is emitted as
 * `command-error`. And a master's failover is met as a single Redis's restart is: its commands
 * wait for the replica that takes over (handleError), and a connection made meanwhile is made once
 * the cluster is whole again (connect). So too the duplicates BullMQ makes (a worker's blocking
 * connection).
 */
export class WatchedCluster extends ioredis().Cluster {
  /**
   * How long a command is retried through a failover before it fails (config: redisDeadlineMs); 0:
   * ioredis's 16 tries. A master that dies is answered for by no node until its replica takes over
   * (`cluster-node-timeout` and an election: seconds, 15 s and more by default): its commands meet
   * "Connection is closed", CLUSTERDOWN, TRYAGAIN or a MOVED to it, each tried again after ioredis's
   * delay (retryDelayOnFailover…), but 16 tries last ~1.6 s, and the command then failed (a `run`
   * crashed so, its rows reported failed). Within rideOutMs of the first, a delayed retry leaves the
   * count whole; a MOVED or ASK (tried again at once) still counts down, so a loop of them ends as
   * before. Pipelines and MULTI (Pipeline.exec) come through here too. A TRYAGAIN of a slot's move
   * is not bounded by it (handleError).
   */
  rideOutMs = 0;

  /**
   * A slot's move (CLUSTER SETSLOT … MIGRATING, MIGRATE … KEYS in batches, SETSLOT … NODE) answers a
   * command over keys of it split between the two masters with TRYAGAIN until the move is done,
   * which takes as long as the operator's reshard takes: seconds or minutes. Redis answers all that
   * while: such a command is tried again for as long, with a backoff of its own
   * (tryAgainDelayMs, at most a second), never counted against its redirections nor its failover
   * deadline (a `run` ended so, "has not answered", its rows left unsent; a chunk failed so sent its
   * rows' PUTs again). ioredis tries it again on a random master, whose MOVED leads back.
   */
  override handleError(error: Error, ttl: Redirections, handlers: unknown): void {
    ttl.since ??= Date.now();
    if (migrationReplyOf(error) === 'TRYAGAIN') {
      ttl.value = this.options.maxRedirections ?? 16;
      ttl.tryAgains = (ttl.tryAgains ?? 0) + 1;
      const wait = tryAgainDelayMs(ttl.tryAgains);
      // Bucketed by wait: ioredis's queue flushes a bucket at its first item's time.
      (this as unknown as { delayQueue: DelayQueue }).delayQueue.push(
        `tryagain-${wait}`,
        (handlers as RedirectionHandlers).tryagain,
        { timeout: wait },
      );
      return;
    }
    const redirected = /^(MOVED|ASK) /.test(error.message);
    if (ttl.value !== undefined && !redirected && Date.now() - ttl.since < this.rideOutMs) {
      // ioredis takes one off before it compares.
      ttl.value = (this.options.maxRedirections ?? 16) + 1;
    }
    super.handleError(error, ttl, handlers);
  }

  override sendCommand(command: Command, stream?: unknown, node?: unknown): unknown {
    const sent = (super.sendCommand as (c: Command, s?: unknown, n?: unknown) => unknown)(
      command,
      stream,
      node,
    );
    command.promise.catch((error: unknown) => {
      // A pipeline's command (sent to a node) answered with a slot's move is sent again by the
      // pipeline (migration-pipeline.ts): reported only if it gives up.
      if (node !== undefined && migrationReplyOf(error) !== null) return;
      this.emit('command-error', error);
    });
    return sent;
  }

  /** ioredis's pipeline, riding out a slot's move (migration-pipeline.ts). */
  override pipeline(commands?: unknown[][]): ChainableCommander {
    const pipeline = super.pipeline(commands);
    rideMigrations(pipeline, this.#riding(), false);
    return pipeline;
  }

  /** ioredis's MULTI, sent again whole when a slot's move discarded it (migration-pipeline.ts). */
  ridingMulti(...args: unknown[]): unknown {
    const multi = (ioredis().Cluster.prototype.multi as (...a: unknown[]) => unknown).apply(this, args);
    const options = args.find((arg) => arg !== null && typeof arg === 'object' && !Array.isArray(arg));
    // { pipeline: false }: a bare MULTI command (its commands then sent one by one), not a pipeline.
    if ((options as { pipeline?: boolean } | undefined)?.pipeline !== false)
      rideMigrations(multi as ChainableCommander, this.#riding(), true);
    return multi;
  }

  #riding() {
    const Cluster = ioredis().Cluster;
    return {
      rawPipeline: () => Cluster.prototype.pipeline.call(this),
      rawMulti: () => Cluster.prototype.multi.call(this),
      refreshSlotsCache: () => this.refreshSlotsCache(),
      maxRedirections: this.options.maxRedirections ?? 16,
      rideOutMs: this.rideOutMs,
      gaveUp: (error: Error) => this.emit('command-error', error),
    };
  }

  /**
   * ioredis's connect(), settled also by the cluster's first 'ready' or its 'end'. When its ready
   * check finds `cluster_state:fail` (a master just died, no replica elected yet), ioredis connects
   * again, and the promise of the first connect() is never settled: what awaited it waited for
   * good (BullMQ's worker, for its blocking connection: the `run` then hung with its rows queued;
   * connectCluster: the process ended with Node's "unsettled top-level await", exit 13).
   */
  override connect(): Promise<void> {
    const attempt = super.connect();
    let next = readyOrEnd.get(this);
    if (!next) {
      next = this.nextReadyOrEnd();
      readyOrEnd.set(this, next);
    }
    return Promise.race([attempt, next]);
  }

  private nextReadyOrEnd(): Promise<void> {
    const settled = new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        this.off('ready', onReady);
        this.off('end', onEnd);
        readyOrEnd.delete(this);
        if (error) reject(error);
        else resolve();
      };
      const onReady = () => settle();
      const onEnd = () => settle(new Error(CONNECTION_CLOSED));
      this.on('ready', onReady);
      this.on('end', onEnd);
    });
    // A connect() whose own attempt settled first leaves no one to hear it.
    settled.catch(() => undefined);
    return settled;
  }

  /** A WatchedCluster, as ioredis's duplicate() is a Cluster: BullMQ's connections ride out a failover too. */
  override duplicate(
    overrideStartupNodes: ClusterNode[] = [],
    overrideOptions: ClusterOptions = {},
  ): WatchedCluster {
    // ioredis keeps the nodes it was given in a field its types call private.
    const { startupNodes } = this as unknown as { startupNodes: ClusterNode[] };
    const copy = new WatchedCluster(
      overrideStartupNodes.length > 0 ? overrideStartupNodes : startupNodes.slice(0),
      { ...this.options, ...overrideOptions },
    );
    copy.rideOutMs = this.rideOutMs;
    return copy;
  }
}

// ioredis's multi() is typed by its overloads, which a method of a subclass cannot restate.
WatchedCluster.prototype.multi = WatchedCluster.prototype.ridingMulti as WatchedCluster['multi'];
