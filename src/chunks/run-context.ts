import type { Redis } from 'ioredis';
import type { LimitFunction } from 'p-limit';
import { UNTIMED_PAUSE_MS } from '../defaults.js';
import type { Logger } from '../logger.js';
import type { RunNotifier } from '../notify/notifier.js';
import type { RedisHealth } from '../redis/health.js';
import type { RedisKeys } from '../runs/keys.js';
import { isAnsweredWrite } from '../runs/request-counts.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import type { AnswerCaps } from '../seller-api/answer-caps.js';
import {
  DailyLimitError,
  type HttpRequester,
  NetworkError,
  type RequestEvent,
  type RetryPolicy,
  rateFigures,
  SellerApiClient,
} from '../seller-api/index.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { SellerRegistry } from '../sellers/seller-registry.js';
import type { ReservedRequest, SellerState } from '../sellers/seller-state.js';
import { CreateClaims } from '../sync/create-claims.js';
import { CreatedProductFinder } from '../sync/created-product-finder.js';
import { keepRemoteOf } from '../sync/diff.js';
import { afterTries, pauseOf, readRetry } from '../sync/error-policy.js';
import { IdMap } from '../sync/id-map.js';
import { indexedFieldsOf } from '../sync/indexed-fields.js';
import { KeyChangedError } from '../sync/key-changed.js';
import { matchSpaceOf } from '../sync/match-space.js';
import { RemoteIndex } from '../sync/remote-index.js';
import type { RowSyncContext } from '../sync/row-sync-context.js';
import { SendingStoppedError } from '../sync/sending-stopped.js';
import { baseUrlRefusal, keyEnvRefusal, type TrustRules } from '../trust-rules.js';
import { insecureRunRefusal } from './insecure-run.js';
import { KeyRejectedError, KeyUnavailableError, RunNotAllowedError } from './key-errors.js';
import { loadRunIndex } from './load-index.js';
import { keyOfSeller, keyStillHeld, keyUnavailableLine, rejectedKeyLine } from './run-key.js';

/** What a process that serves runs shares among them: one Redis, one request limiter, one clock. */
export interface WorkerDeps {
  /** The tool's own commands (runtime.ts `commands`): no BullMQ scripts defined on it. */
  redis: Redis;
  /** The connection BullMQ's queues and workers use; `redis` when absent (tests). */
  queueConnection?: Redis;
  keys: RedisKeys;
  runs: RunStore;
  sellers: SellerState;
  /** Which seller a key serves: the run's key is found among those this process holds (keyOfSeller). */
  registry: SellerRegistry;
  /** Where keys are read from: the run names the variable (`--key-env`), never the key. */
  env: NodeJS.ProcessEnv;
  /**
   * `worker --keys-file`: reads the file again if it changed, into `env` (keys-file-reload.ts).
   * Called before a run context reads its key, so a key fixed in the file serves without a restart.
   */
  refreshKeys?: () => Promise<boolean>;
  /** The command these workers serve in-process (`run`, `approve`); absent: a `worker`. Its messages name it. */
  command?: 'run' | 'approve';
  /**
   * What this process's own environment allows (config.ts readTrustRules): a run read from Redis is
   * served only when its key variable and its base URL's host pass these rules.
   */
  trust: TrustRules;
  /**
   * This process's own `--allow-insecure`: a run's base URL that is `http://` to a host not loopback
   * is served only with it, whatever the run's record says (insecure-run.ts).
   */
  allowInsecure: boolean;
  /**
   * Every Seller API request of this process passes it (`--concurrency`; docs/architecture.md,
   * decision 2).
   */
  limiter: LimitFunction;
  logger: Logger;
  /**
   * The process's view of Redis: once a write was refused (full, read-only) no request leaves
   * (health.ts). Absent in tests that do not need it.
   */
  health?: RedisHealth;
  /**
   * Aborted when the command serving in this process was interrupted (`approve`): no request leaves
   * from then on (sync/sending-stopped.ts); the ones in flight finish and settle.
   */
  stopSending?: AbortSignal;
  /** Told of every request sent to the Seller API (`worker --metrics-port`). */
  onRequestSent?: (event: RequestEvent) => void;
  /** Told when a chunk of a run begins its rows (the list read done): `run` reads the rest of its source. */
  onRowsBegun?: (runId: string) => void;
  /** Told of a run's plan line (issue 14) before its first write: `run` prints it. */
  onRunPlan?: (runId: string, line: string) => void;
  /**
   * Told when this process is done with a run (it ended it, or found it ended or gone): `run` looks
   * at the run at once instead of at its next poll.
   */
  onRunLeft?: (runId: string) => void;
  /** Tells a run's `--notify` webhook of its end and pauses; absent in tests that do not need it. */
  notifier?: RunNotifier;
  retry: RetryPolicy;
  timeoutMs: number;
  /** The caps of the API's answers (answer-caps.ts); the defaults when absent (tests scale them down). */
  answerCaps?: Partial<AnswerCaps>;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  /** How long a create's claim holds without renewal (the job lock duration: see create-claims.ts). */
  claimMs?: number;
  fetch?: typeof globalThis.fetch;
  /** The process's HTTP client, its sockets sized to `limiter` (absent: the shared default one). */
  request?: HttpRequester;
}

export interface RunContext extends RowSyncContext {
  run: RunRecord;
  /**
   * The fingerprint of the key its client sends (sellerRef of the base URL and the key): a context
   * holding a key listed among the seller's rejected keys is built again.
   */
  keyFingerprint: string;
  /** False once the variable its key was read from holds another (its keys file read again). */
  keyStillHeld: () => boolean;
  /**
   * The key's fingerprint once the API answered 401 to it, handed out once: what the seller's pause
   * lists as rejected. Undefined for a pause read from Redis (another process's 401, maybe another key).
   */
  takeRejectedKey: () => string | undefined;
  /** The space of the run's match field (match-space.ts): its id map and claims. */
  space: string;
  /** Re-reads every page of the seller's products into the index. */
  loadIndex: () => Promise<unknown>;
}

/**
 * Builds the per-run context once per process and run; the key is read from the environment here.
 * Built again when its key was rejected (renew), or when the variable it read the key from holds
 * another one now (a rotated key in a keys file read again): a cached context never sends a key
 * this process no longer holds.
 */
export class RunContexts {
  private readonly cache = new Map<string, Promise<RunContext | null>>();

  constructor(private readonly deps: WorkerDeps) {}

  get(runId: string): Promise<RunContext | null> {
    const cached = this.cache.get(runId);
    if (cached)
      return cached.then((context) =>
        context && !context.keyStillHeld() ? this.renew(runId, context) : context,
      );
    const context = this.build(runId);
    this.cache.set(runId, context);
    context.catch(() => this.cache.delete(runId));
    return context;
  }

  /** Forget a finished run's context (its index finder and caches). */
  drop(runId: string): void {
    this.cache.delete(runId);
    this.deps.onRunLeft?.(runId);
  }

  /**
   * The run's context built again: its key was rejected (401) since it was built, here or in another
   * process, or its variable holds another key now. The key is read afresh (the keys file again if it changed): a fixed key serves, and
   * with none but a rejected key, KeyRejectedError and nothing is sent.
   */
  async renew(runId: string, stale: RunContext): Promise<RunContext | null> {
    const current = this.cache.get(runId);
    // Another chunk of the run may have renewed it already: that one is kept.
    if (current && (await current.catch(() => null)) === stale && this.cache.get(runId) === current)
      this.cache.delete(runId);
    return this.get(runId);
  }

  private async build(runId: string): Promise<RunContext | null> {
    const { deps } = this;
    const run = await deps.runs.get(runId);
    if (!run) return null;
    // Redis is not trusted: whoever can write to it must not choose which variable is read, nor
    // where it goes, nor that it goes in clear.
    const refusal =
      keyEnvRefusal(run.keyEnv, deps.trust) ??
      baseUrlRefusal(run.baseUrl, deps.trust) ??
      insecureRunRefusal(run.baseUrl, deps);
    if (refusal) throw new RunNotAllowedError(`run ${runId} is not served by this worker: ${refusal}`);
    await deps.refreshKeys?.();
    const found = await keyOfSeller(deps, run);
    if (found.missing === 'rejected') throw new KeyRejectedError(rejectedKeyLine(deps, run, found.names));
    if (found.missing !== undefined)
      throw new KeyUnavailableError(keyUnavailableLine(deps, run, found.missing));
    const apiKey = found.key;
    const stillHeld = () => keyStillHeld(deps.env, found);
    const ref = run.sellerRef;
    const logger = deps.logger.child({ run: runId, seller: ref });
    // A request whose every try failed without reaching the API pauses the seller, in this process
    // at once: requests still waiting for the limiter are then not sent (the chunk records it).
    const afterTriesOf = (error: unknown, tries: readonly unknown[]) => {
      const final = afterTries(error, run.baseUrl, deps.now() + UNTIMED_PAUSE_MS, tries);
      const pause = final === error ? null : pauseOf(final);
      if (pause) deps.sellers.pauseLocally(ref, pause);
      return final;
    };
    const keyFingerprint = sellerRef(run.baseUrl, apiKey);
    let keyRejected = false;
    const client = new SellerApiClient({
      baseUrl: run.baseUrl,
      apiKey,
      // This process's own flag, never the record's (checked above).
      allowInsecure: deps.allowInsecure,
      dailyReset: run.dailyReset,
      timeoutMs: deps.timeoutMs,
      ...(deps.answerCaps ? { answerCaps: deps.answerCaps } : {}),
      retry: readRetry(deps.retry, afterTriesOf),
      sleep: deps.sleep,
      random: deps.random,
      now: deps.now,
      logger,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      ...(deps.request ? { request: deps.request } : {}),
      schedule: (task, gate) =>
        deps.limiter(async () => {
          // Nothing new starts once this process knows the seller is paused (issue 5: at most about
          // `--concurrency` answers 429 when a run crosses the limit), once Redis refused a write
          // (issue 18: what the request changes could not be recorded), or once the run's record
          // is gone from Redis (issue 10: the claims that prevent a second create may be gone too).
          deps.health?.assertWritable();
          deps.sellers.assertNotPausedLocally(ref);
          if (deps.stopSending?.aborted)
            throw new SendingStoppedError(`run ${runId}: interrupted: not sent, the row stays queued`);
          // A key changed in the keys file since this context was built is not sent: the chunk goes
          // back to its queue and the context is built again with the key as it is now.
          if (!stillHeld())
            throw new KeyChangedError(
              `run ${runId}: $${found.name} holds another key now: not sent with the one it held`,
            );
          // A chunk's request, once its worker lost the chunk to another (chunk-hold.ts): not sent.
          await gate?.();
          // Past the learned limit, one request at a time (issue 31: one 429 per crossing).
          const reserved = await deps.sellers
            .reserveWithinLimit(ref, run.dailyReset, run.dailyBudget, {
              id: runId,
              key: deps.keys.run(runId),
            })
            .catch((error: unknown) => {
              deps.health?.note(error);
              throw error;
            });
          try {
            deps.health?.assertWritable();
            // The request's reserved number comes back with its answer's event (onRequest below).
            return await task(reserved);
          } catch (error) {
            // Its connection was never made: the API did not count it, nor does the seller's day.
            if (error instanceof NetworkError && error.notSent) {
              await reserved.notSent?.().catch((fault: unknown) => {
                deps.health?.note(fault);
              });
            }
            // The seller's daily limit, as its API shows it: the requests it accepted in the window.
            if (error instanceof DailyLimitError) {
              reserved.refused?.();
              await deps.sellers.learnLimit(ref, reserved.windowStart).catch((fault: unknown) => {
                deps.health?.note(fault);
              });
            }
            throw error;
          } finally {
            reserved.answered();
          }
        }),
      onRequest: (event, slot) => {
        if (event.status === 401) keyRejected = true;
        // Requests still waiting for the limiter must not go out once one answer says stop.
        const pause = event.error && pauseOf(event.error);
        if (pause) deps.sellers.pauseLocally(ref, pause);
        // The API's day is open, and what it says is left of it, if it says: past that, one probe.
        // The answer's rate headers are read against the number its request was given.
        if (slot && event.status !== null && !pause)
          deps.sellers.noteAnswer(ref, slot as ReservedRequest, rateFigures(event.headers));
        // A request whose connection was never made is none of the run's (the day's: given back above).
        if (!event.notSent)
          deps.runs.countRequest(runId, isAnsweredWrite(event.method, event.status)).catch(() => undefined);
        deps.onRequestSent?.(event);
      },
    });
    // The id map and claims of the run's match field (match-space.ts).
    const space = await matchSpaceOf(deps.redis, deps.keys, ref, run.matchBy, runId, run.dryRun);
    const idMap = new IdMap(deps.redis, deps.keys, ref, space);
    const claims = new CreateClaims(
      deps.redis,
      deps.keys,
      ref,
      deps.now,
      deps.claimMs,
      (id) => deps.keys.run(id),
      space,
    );
    const { only, leaveOut } = indexedFieldsOf(run);
    const index = new RemoteIndex(deps.redis, deps.keys, runId, run.matchBy, only, idMap, claims, leaveOut);
    const loadIndex = () => loadRunIndex({ ...deps, logger }, run, index, client, () => idMap.size());
    const finder = new CreatedProductFinder(
      () => index.load(client.listProducts()),
      (key) => index.byKey(key),
      run.matchBy,
      deps.now,
      deps.sleep,
    );
    return {
      run,
      keyFingerprint,
      keyStillHeld: stillHeld,
      takeRejectedKey: () => {
        if (!keyRejected) return undefined;
        keyRejected = false;
        return keyFingerprint;
      },
      runId,
      space,
      client,
      index,
      idMap,
      claims,
      finder,
      createOnly: new Set(run.createOnlyFields ?? []),
      ...(run.keepRemoteEdits ? { keepRemote: keepRemoteOf(run.keepRemoteEdits) } : {}),
      ...(run.fields ? { sent: new Set(run.fields) } : {}),
      matchBy: run.matchBy,
      recordUnchanged: run.incremental === true,
      only: run.only ?? null,
      loadIndex,
      dryRun: run.dryRun,
      retry: deps.retry,
      afterTries: afterTriesOf,
      sleep: deps.sleep,
      random: deps.random,
      logger,
    };
  }
}
