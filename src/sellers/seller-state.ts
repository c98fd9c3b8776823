import type { Redis } from 'ioredis';
import { DEFAULT_PROBE_BACKOFF } from '../defaults.js';
import { RunStateLostError } from '../redis/health.js';
import type { RedisKeys } from '../runs/keys.js';
import { parseLearned } from '../runs/learned-limit.js';
import type { RateFigures } from '../seller-api/remaining-requests.js';
import { type ApiUnreachableError, SellerPausedError, storedDailyPause } from '../sync/seller-pause.js';
import { AcceptedAnswers } from './accepted-answers.js';
import { LimitGate, type ReservedRequest } from './limit-gate.js';
import { noteLimitReset } from './limit-reset.js';
import { LocalPauses, waitOutReset } from './local-pauses.js';
import { passedReset, storedInstant } from './quota-day.js';
import { RejectedKeys } from './rejected-keys.js';
import { RequestQuota } from './request-quota.js';
import {
  markUnreachable,
  type ProbeBackoff,
  parseUnreachable,
  pauseOfRecord,
  type UnreachableRecord,
} from './seller-reach.js';
import { readSellerStatus, type SellerStatus } from './seller-status.js';
import { rebaseWindow } from './window-rebase.js';

export type { ReservedRequest, SellerStatus };

/**
 * A seller's shared state in Redis: daily-limit pause, rejected key, unreachable API, requests used
 * today (its registry entry and key links: seller-registry.ts).
 * Every process that serves the seller reads the same keys, so a pause holds on every machine and
 * outlives restarts. A local copy of the pause spares a Redis round trip per request; a copy of a
 * mark another process lifted (`resume`) goes at the next chunk's read (local-pauses.ts).
 */
export class SellerState {
  private readonly localPause: LocalPauses;
  /** The day's request numbers this process holds in advance (request-quota.ts). */
  readonly quota: RequestQuota;
  /** The keys the API rejected for each seller, by fingerprint: none is sent again (rejected-keys.ts). */
  readonly rejectedKeys: RejectedKeys;
  /** The API's day and limit as learned from its answers, and one request at a time past it. */
  private readonly gate: LimitGate;
  /** The requests the API accepted, by window: what the learned limit counts. */
  private readonly accepted: AcceptedAnswers;

  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisKeys,
    private readonly now: () => number = Date.now,
    /** How long a seller whose API is out of reach waits before each probe (CATALOG_SYNC_PROBE_MS). */
    private readonly probeBackoff: ProbeBackoff = DEFAULT_PROBE_BACKOFF,
  ) {
    this.localPause = new LocalPauses(now);
    this.quota = new RequestQuota(redis);
    this.rejectedKeys = new RejectedKeys(redis, keys);
    this.accepted = new AcceptedAnswers(redis, keys, now, (ref, limit) =>
      this.gate.windows.noteLimit(ref, limit),
    );
    this.gate = new LimitGate({
      quota: this.quota,
      keys,
      now,
      assertNotPausedLocally: (ref) => this.assertNotPausedLocally(ref),
      refuse: async (ref, refusal, dayEnd, runId) => {
        if (refusal.refused === 'lost') throw new RunStateLostError(runId);
        // Another process met the 429 (or a budget): this request is not sent (one 429 per crossing).
        if (refusal.refused === 'paused') {
          const pause = storedDailyPause(refusal.until, refusal.cause);
          if (pause.reason === 'daily-limit') this.gate.windows.noteReset(ref, refusal.until);
          await this.accepted.countBefore(ref, this.gate.windows.lastAnnounced(ref) ?? refusal.until);
          throw this.remember(ref, pause, true);
        }
        throw await this.pauseUntil(ref, dayEnd, 'daily-budget', runId);
      },
      rebase: (ref, window) => rebaseWindow(redis, keys, ref, window),
    });
  }

  /** Throws SellerPausedError when this process already knows the seller is paused; costs nothing. */
  assertNotPausedLocally(ref: string): void {
    this.localPause.assert(ref);
  }

  /**
   * Reads the shared pause (set by any process); call once per chunk. Resolves to `probeDue` true
   * when the seller's API was out of reach and its next probe may go now: the caller probes first.
   */
  async assertNotPaused(ref: string): Promise<{ probeDue: boolean }> {
    await waitOutReset(this.localPause.get(ref), this.now);
    // A copy of a rejected key's or an unreachable API's mark is checked against Redis first: another
    // process may have lifted it (`resume`, the next `run`, `cancel`). Any other pause fails at once.
    const copy = this.localPause.liftable(ref);
    if (!copy) this.assertNotPausedLocally(ref);
    const [until, rejected, unreachable, reset, learned, cause, resetBefore] = await this.redis.mget(
      this.keys.pausedUntil(ref),
      this.keys.authRejected(ref),
      this.keys.unreachable(ref),
      this.keys.limitReset(ref),
      this.keys.learnedLimit(ref),
      this.keys.pauseCause(ref),
      this.keys.limitResetBefore(ref),
    );
    // What other processes learned of the API's day: where it began, how many requests it allows.
    const announced = storedInstant(reset);
    if (announced !== null) this.gate.windows.noteReset(ref, announced);
    const before = passedReset(this.now(), null, storedInstant(resetBefore));
    if (before !== null) this.gate.windows.notePassed(ref, before);
    const record = parseLearned(learned ?? null);
    this.gate.windows.noteLimit(ref, record?.limit ?? null);
    // Requests this process had sent in the window another process's 429 taught: they count too.
    if (record && this.accepted.pending(ref, record.dayStart) > 0)
      await this.accepted.count(ref, record.dayStart, false);
    if (copy) {
      this.localPause.dropLifted(ref, copy, {
        rejected: rejected !== null,
        unreachable: unreachable !== null,
        paused: until !== null,
      });
      this.assertNotPausedLocally(ref);
    }
    if (rejected) throw this.remember(ref, new SellerPausedError('unauthorized', null), true);
    const reach = parseUnreachable(unreachable);
    if (reach && reach.retryAt > this.now()) throw this.remember(ref, pauseOfRecord(reach), true);
    if (until && Number(until) > this.now()) {
      const pause = storedDailyPause(Number(until), cause ?? null);
      if (!(await waitOutReset(pause, this.now))) throw this.remember(ref, pause, true);
    }
    return { probeDue: reach !== null };
  }

  /**
   * Records that no request reached the seller's API: nothing is sent to it until the next probe,
   * whose wait doubles with each failed one (one count per wait, whoever gives up during it).
   */
  async markUnreachable(
    ref: string,
    pause: ApiUnreachableError,
  ): Promise<{ record: UnreachableRecord; fresh: boolean }> {
    const marked = await markUnreachable(
      this.redis,
      this.keys.unreachable(ref),
      pause,
      this.now(),
      this.probeBackoff,
    );
    this.remember(ref, pauseOfRecord(marked.record), true);
    return marked;
  }

  /** The API answered a probe: the seller is served again. True when it had been out of reach. */
  async clearUnreachable(ref: string): Promise<boolean> {
    this.localPause.delete(ref, 'unreachable');
    return (await this.redis.del(this.keys.unreachable(ref))) === 1;
  }

  /**
   * Records a pause in this process at once, before the shared record is written: requests still
   * waiting for the limiter then fail without being sent (issue 5: about `--concurrency` 429s at most).
   */
  pauseLocally(ref: string, pause: SellerPausedError): void {
    if (pause.reason === 'daily-limit' && pause.until !== null) this.gate.windows.noteReset(ref, pause.until);
    this.remember(ref, pause, false);
  }

  async pauseUntil(
    ref: string,
    until: number,
    reason: 'daily-limit' | 'daily-budget',
    /** The run whose budget it is (`daily-budget`): `cancel` of that run lifts the pause. */
    runId = '',
  ): Promise<SellerPausedError> {
    const ttl = Math.max(1, until - this.now());
    const cause = reason === 'daily-budget' ? `budget ${runId}` : 'limit';
    await this.redis
      .multi()
      .set(this.keys.pausedUntil(ref), until, 'PX', ttl)
      .set(this.keys.pauseCause(ref), cause, 'PX', ttl)
      .exec();
    // The API's day begins anew at the reset its 429 announced: every process counts from there.
    if (reason === 'daily-limit') {
      this.gate.windows.noteReset(ref, until);
      const keys = { reset: this.keys.limitReset(ref), before: this.keys.limitResetBefore(ref) };
      await noteLimitReset(this.redis, keys, until, this.now());
    }
    const pause = new SellerPausedError(reason, until);
    if (reason === 'daily-budget') pause.budgetOf = runId;
    return this.remember(ref, pause, true);
  }

  /**
   * Pauses the seller for a rejected key (401); `keyFingerprint`: the key's (sellerRef of the base URL
   * and the key), listed so that no process sends with it again (rejected-keys.ts).
   */
  async markAuthRejected(ref: string, keyFingerprint?: string): Promise<SellerPausedError> {
    // One slot on a cluster: both keys are the seller's.
    const write = this.redis.multi().set(this.keys.authRejected(ref), this.now());
    if (keyFingerprint) write.hset(this.keys.rejectedKeys(ref), keyFingerprint, this.now());
    await write.exec();
    return this.remember(ref, new SellerPausedError('unauthorized', null), true);
  }

  /** Lifts a pause that `runId`'s --daily-budget set (its run was cancelled); true when it did. */
  async clearBudgetPause(ref: string, runId: string): Promise<boolean> {
    if ((await this.redis.get(this.keys.pauseCause(ref))) !== `budget ${runId}`) return false;
    this.localPause.delete(ref, 'daily-budget');
    await this.redis.del(this.keys.pausedUntil(ref), this.keys.pauseCause(ref));
    return true;
  }

  async clearAuthRejected(ref: string): Promise<boolean> {
    this.localPause.delete(ref);
    return (await this.redis.del(this.keys.authRejected(ref))) === 1;
  }

  /**
   * Counts a request about to be sent against the seller's quota day; resolves to its number (`day`).
   * Call `answered` once it is answered, `notSent` first when its connection was never made.
   * With a daily budget, a request past it is not sent: the seller pauses until the reset.
   * With `run`, each block of numbers checks that the run's record is still in Redis: a run whose
   * state Redis lost (a restart without persistence, FLUSHALL) sends no request once its block is
   * used, and no create at all (the create's claim checks it too, create-claims.ts), since the id
   * map and claims that keep it from creating a product twice may be gone with it.
   */
  async reserveRequest(
    ref: string,
    dailyReset: string,
    budget: number | null,
    run?: { id: string; key: string },
  ): Promise<ReservedRequest> {
    return this.gate.reserve(ref, dailyReset, budget, run, false);
  }

  /**
   * As reserveRequest, held back by the limit learned (issue 31): past it, the request waits until
   * it may be this process's one probe, and is not sent when the probe before it met the 429. Call
   * `answered` once the request is answered.
   */
  reserveWithinLimit(
    ref: string,
    dailyReset: string,
    budget: number | null,
    run?: { id: string; key: string },
  ): Promise<ReservedRequest> {
    return this.gate.reserve(ref, dailyReset, budget, run, true);
  }

  /** The API answered `request` other than with a 429; `figures`: what its rate headers said. */
  noteAnswer(ref: string, request: ReservedRequest, figures: RateFigures): void {
    this.accepted.note(ref, request.windowStart);
    this.gate.noteAnswer(ref, request, figures.remaining, figures.limit);
    // An answer that comes after a 429 ended its window (a request in flight then): counted at
    // once, it raises the limit learned from that 429. Only at a crossing: a few requests.
    const ended = this.gate.windows.lastAnnounced(ref);
    if (ended !== null && request.windowStart < ended)
      this.accepted.countBefore(ref, ended).catch(() => undefined);
  }

  /**
   * A chunk of the seller ended here: with none left under way, its unused numbers go back; and the
   * requests the API accepted are counted in Redis, so that the 429 that ends their window counts
   * them (a later run's, or another process's): once a limit is known, as the limit's raise; before,
   * with the numbers given back (no command of their own: a seller that never met a 429 costs none).
   */
  async chunkEnded(ref: string): Promise<void> {
    if (this.gate.windows.knowsLimit(ref)) {
      await this.quota.release(ref);
      await this.accepted.countBefore(ref, Number.POSITIVE_INFINITY);
      return;
    }
    await this.accepted.withGiveBack(ref, (handover) => this.quota.release(ref, handover));
  }

  /**
   * A 429 answered a request of the limit window that began at `windowStart`: the requests the API
   * accepted in that window, in every process, are the seller's daily limit (issue 14). Those of
   * other processes still in flight or not yet reported raise it when they are (assertNotPaused).
   * A window's first request refused teaches nothing: the window began before the API's day did.
   */
  async learnLimit(ref: string, windowStart: number): Promise<void> {
    await this.accepted.count(ref, windowStart, true);
  }

  /** The seller's state, its requests read from the day the limiter counts them in (quota-day.ts). */
  status(ref: string, dailyReset: string): Promise<SellerStatus> {
    return readSellerStatus(this.redis, this.keys, ref, dailyReset, this.now());
  }

  /** `shared`: Redis holds the pause too (written or read here), not only this process. */
  private remember(ref: string, pause: SellerPausedError, shared: boolean): SellerPausedError {
    return this.localPause.set(ref, pause, shared);
  }
}
