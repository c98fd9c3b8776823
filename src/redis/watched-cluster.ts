import type { ClusterNode, ClusterOptions, Command } from 'ioredis';
import { ioredis } from '../cjs-packages.js';

/** ioredis's count of one command's (or pipeline's) redirections left, and when the first was met. */
interface Redirections {
  value?: number;
  since?: number;
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
   * before. Pipelines and MULTI (Pipeline.exec) come through here too.
   */
  rideOutMs = 0;

  override handleError(error: Error, ttl: Redirections, handlers: unknown): void {
    ttl.since ??= Date.now();
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
    command.promise.catch((error: unknown) => this.emit('command-error', error));
    return sent;
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
