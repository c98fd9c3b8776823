import type { EventEmitter } from 'node:events';
import { isNeededPermissionRefusal } from './permission-refusal.js';

/**
 * What can go wrong with a Redis that still answers (issue 18, issue 10 item 9):
 * - `full`: it refuses writes for memory (`OOM command not allowed`, also inside MULTI and scripts);
 * - `read-only`: it refuses writes as a replica (`READONLY`);
 * - `lost`: a run's own record is gone (a restart without persistence, FLUSHALL, a failover to an
 *   empty replica): what the run did so far is unknown to Redis.
 * - `unanswered`: a Redis Cluster whose master of a slot stayed out of reach, no replica taking over,
 *   for longer than its commands are retried through a failover (connect-cluster.ts, rideOutMs).
 * - `denied`: the ACL user lacks a permission the tool needs (scripting, its keys: NOPERM): nothing
 *   goes on without it, and it is the user's grant to fix, not a wait (permission-refusal.ts). Its
 *   message is Redis's own answer, which the line that ends the command reads.
 */
export type RedisFaultKind = 'full' | 'read-only' | 'lost' | 'unanswered' | 'denied';

/** A write was refused, or a run's state is gone: nothing more may be sent for it. */
export class RedisFaultError extends Error {
  override name = 'RedisFaultError';
  constructor(
    readonly kind: RedisFaultKind,
    message: string,
    readonly runId: string | null = null,
  ) {
    super(message);
  }
}

/** The run's record vanished from Redis while the run was under way. */
export class RunStateLostError extends RedisFaultError {
  override name = 'RunStateLostError';
  constructor(runId: string) {
    super('lost', `Redis lost run ${runId}'s state (its record is gone)`, runId);
  }
}

/** What a fault that stops the process's writes says, from the error that showed it. */
const FAULT_MESSAGES: Record<Exclude<RedisFaultKind, 'lost'>, (said: string) => string> = {
  full: (said) => `Redis refused a write: it is full (${said.slice(0, 200)})`,
  'read-only': () => 'Redis refused a write: it is a read-only replica',
  unanswered: (said) => `Redis Cluster did not answer a command (${said.slice(0, 200)})`,
  denied: (said) => said.slice(0, 300),
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The fault an error from Redis shows, or null: a refused write for memory or as a replica, whether
 * answered to the command itself, to a command queued in MULTI (EXECABORT carries them as
 * `previousErrors`) or from inside a Lua script (BullMQ's and ours).
 */
export function faultOf(error: unknown): RedisFaultKind | null {
  if (error instanceof RedisFaultError) return error.kind;
  const message = messageOf(error);
  if (message.includes('OOM command not allowed')) return 'full';
  if (/\bREADONLY\b/.test(message)) return 'read-only';
  if (isNeededPermissionRefusal(message)) return 'denied';
  if (clusterUnanswered(message)) return 'unanswered';
  const previous = (error as { previousErrors?: unknown } | null)?.previousErrors;
  if (Array.isArray(previous)) {
    for (const earlier of previous) {
      const kind = faultOf(earlier);
      if (kind) return kind;
    }
  }
  return null;
}

/**
 * What a cluster's command fails with once its retries are used up (ioredis's words): its last
 * error after the redirections, CLUSTERDOWN (a pipeline's command is not retried past them either),
 * or no node giving the slots. Never a single Redis's: its commands wait (connect.ts).
 */
function clusterUnanswered(message: string): boolean {
  return /^Too many Cluster redirections|^CLUSTERDOWN\b|^Failed to refresh slots cache/.test(message);
}

/**
 * The state of the process's Redis as its commands meet it. The first refused write trips it (the
 * client reports every command error, BullMQ's too: connect.ts `WatchedRedis`); from then on
 * `assertWritable` stops every request before it leaves, until `clear` (a worker that found Redis
 * taking writes again). A run whose record vanished is reported to the listeners as `lost`, without
 * stopping other runs.
 */
export class RedisHealth {
  #fault: RedisFaultError | null = null;
  readonly #lost = new Set<string>();
  readonly #listeners = new Set<(fault: RedisFaultError) => void>();

  /** Listens to a client's refused commands (`command-error`). */
  watch(redis: EventEmitter): void {
    redis.on('command-error', (error: unknown) => {
      this.note(error);
    });
  }

  /** Records the fault an error shows (the first one is kept); resolves to it, or null for any other error. */
  note(error: unknown): RedisFaultError | null {
    const kind = faultOf(error);
    if (kind === null) return null;
    if (kind === 'lost') {
      const runId = (error as RedisFaultError).runId ?? '';
      if (!this.#lost.has(runId)) {
        this.#lost.add(runId);
        this.#tell(error as RedisFaultError);
      }
      return error as RedisFaultError;
    }
    if (!this.#fault) {
      this.#fault = new RedisFaultError(kind, FAULT_MESSAGES[kind](messageOf(error).replace(/\s+/g, ' ')));
      this.#tell(this.#fault);
    }
    return this.#fault;
  }

  /** The write refusal (full, read-only, denied) or cluster out of reach met so far, or null. */
  get fault(): RedisFaultError | null {
    return this.#fault;
  }

  /** True once `runId`'s record was found gone. */
  lost(runId: string): boolean {
    return this.#lost.has(runId);
  }

  /** Throws the refusal met, if any: called before every request to the Seller API. */
  assertWritable(): void {
    if (this.#fault) throw this.#fault;
  }

  /** Redis takes writes again (a worker's probe succeeded). */
  clear(): void {
    this.#fault = null;
  }

  /** Calls `listener` with each new fault; returns how to stop listening. */
  onFault(listener: (fault: RedisFaultError) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(fault: RedisFaultError): void {
    for (const listener of this.#listeners) listener(fault);
  }
}
