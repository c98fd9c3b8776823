import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import type { SellerState, SellerStatus } from '../sellers/seller-state.js';
import type { RunNotifier } from './notifier.js';
import type { PauseDetail, RunEvent } from './payload.js';

/**
 * A seller's pause holds every run of the seller, not only the one whose request met it: each run
 * that waits on it is told, once per pause (the notifier's claim), whichever process meets it.
 * Two moments cover them all: when a pause begins (the runs queued then), and when a run starts
 * while the seller is already paused (no worker takes its chunks then, so no chunk would tell it).
 */

/** A pause as its webhook event: `resumesAt` for a daily limit or budget, `unreachable` its cause. */
export interface PauseEvent extends PauseDetail {
  event: Extract<RunEvent, 'paused' | 'key-rejected' | 'api-unreachable'>;
}

/** The pause the seller is under, in the order `status` names them; null when it is served. */
export function pauseEventOf(seller: SellerStatus): PauseEvent | null {
  if (seller.authRejected) return { event: 'key-rejected' };
  if (seller.unreachable) {
    const { cause, noApi } = seller.unreachable;
    return { event: 'api-unreachable', unreachable: { cause, noApi: noApi === true } };
  }
  if (seller.pausedUntil !== null) return { event: 'paused', resumesAt: seller.pausedUntil };
  return null;
}

/** A run just created, whose seller is paused already: its webhook hears of the pause now. Never throws. */
export async function tellPauseAtStart(
  deps: { sellers: Pick<SellerState, 'status'>; notifier?: RunNotifier; logger: Logger },
  run: RunRecord,
): Promise<void> {
  if (!run.notify || !deps.notifier) return;
  try {
    const pause = pauseEventOf(await deps.sellers.status(run.sellerRef, run.dailyReset));
    if (pause) await deps.notifier.notifyRun(pause.event, run, pause);
  } catch (error) {
    deps.logger.warn({ run: run.id, reason: String(error) }, 'webhook not told of the pause');
  }
}

export interface WaitingRunsDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  notifier?: RunNotifier;
  logger: Logger;
}

/**
 * A pause just began (`metBy` met it): `metBy`'s webhook, and that of every other run of the seller
 * still waiting to be synced, hears of it. Never throws.
 */
export async function tellPauseToWaitingRuns(
  deps: WaitingRunsDeps,
  sellerRef: string,
  pause: PauseEvent,
  metBy: string,
): Promise<void> {
  const { notifier } = deps;
  if (!notifier) return;
  await notifier.notifyRunById(pause.event, metBy, (id) => deps.runs.get(id), pause);
  try {
    const waiting = await waitingRunsOf(deps, sellerRef, metBy);
    // At once: a hook that does not answer costs its bounded tries once, not once per run.
    await Promise.all(waiting.map((run) => notifier.notifyRun(pause.event, run, pause)));
  } catch (error) {
    deps.logger.warn({ seller: sellerRef, reason: String(error) }, 'webhook not told of the pause');
  }
}

/**
 * The seller's other runs (its own index: the last week's) that have a webhook and are not over:
 * queued or running, neither cancelled nor ending early. Their states first, then those in full.
 */
async function waitingRunsOf(deps: WaitingRunsDeps, sellerRef: string, except: string): Promise<RunRecord[]> {
  const ids = (await deps.redis.zrange(deps.keys.sellerRuns(sellerRef), 0, -1)).filter((id) => id !== except);
  const states = await Promise.all(
    ids.map((id) => deps.redis.hmget(deps.keys.run(id), 'state', 'cancelledAt', 'aborted', 'endingEarly')),
  );
  const open = ids.filter((_, i) => {
    const [state, cancelledAt, aborted, endingEarly] = states[i] ?? [];
    return (state === 'queued' || state === 'running') && !cancelledAt && aborted !== '1' && !endingEarly;
  });
  const runs = await Promise.all(open.map((id) => deps.runs.get(id)));
  return runs.filter((run): run is RunRecord => Boolean(run?.notify));
}
