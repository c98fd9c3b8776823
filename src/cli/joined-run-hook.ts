import { pauseEventOf } from '../notify/pause-notice.js';
import { webhookOrigin } from '../notify/webhook-url.js';
import type { RunRecord, RunSpec } from '../runs/run-store.js';
import type { Runtime } from './runtime.js';
import type { WaitResult } from './wait-for-run.js';

/**
 * The `--notify` webhook of a `run` that was not queued: its source's run was queued or under way
 * already (a `--no-wait` that exited 4 on the daily limit, an `import` no worker took yet, last
 * night's `run` still waiting), and this `run` waits for that one and reports it. That run's own
 * webhook (none, or another) is told as ever; this one is told by this process, which waits anyway:
 * the pause the joined run waits on as it is joined (as a run started while its seller is paused is
 * told), each pause that begins while it waits (a daily limit met again on a later day), once per
 * pause, and its end (`ended`, or `held`) once the wait sees it. A wait that stops before the end
 * (a pause with `--no-wait`, a rejected key, an API out of reach) tells that pause, and `run` says in
 * one line that this webhook will not hear the end. Never throws (the notifier does not).
 * Not told: an `approve` that ends a joined run the wait saw end `held` (this process has left by
 * then, and the hook is known to it alone: the run's record does not hold it).
 */
export interface JoinedRunHook {
  /** Tells the webhook of the pause the joined run waits on now, if any. */
  atJoin(): Promise<void>;
  /** Tells the webhook of a pause that began while it waits (the wait's onWaiting), unless told already. */
  atPause(run: RunRecord): Promise<void>;
  /** Tells the webhook how the wait ended; the line to say when it will not hear the run's end. */
  atEnd(waited: WaitResult): Promise<string | null>;
}

/** Null when the run has no webhook of its own, or the joined run has the same (told as ever). */
export async function joinedRunHook(
  runtime: Pick<Runtime, 'runs' | 'sellers' | 'notifier' | 'logger'>,
  spec: Pick<RunSpec, 'notify' | 'notifyFromJob'>,
  joinedId: string,
): Promise<JoinedRunHook | null> {
  const url = spec.notify;
  if (!url) return null;
  const joined = await runtime.runs.get(joinedId);
  if (!joined || joined.notify === url) return null;
  const hook = { url, fromJob: spec.notifyFromJob === true };
  // Once per pause: a daily pause by its reset (a later day's is another pause), the others by kind.
  const told = new Set<string>();
  const tellPause = async (run: RunRecord) => {
    const pause = pauseEventOf(await runtime.sellers.status(run.sellerRef, run.dailyReset));
    const which = pause && `${pause.event} ${pause.resumesAt ?? ''}`;
    if (!pause || !which || told.has(which)) return;
    told.add(which);
    await runtime.notifier.notifyJoiner(pause.event, run, hook, pause);
  };
  const safely = async <T>(what: () => Promise<T>, fallback: T): Promise<T> => {
    try {
      return await what();
    } catch (error) {
      runtime.logger.warn({ run: joinedId, reason: String(error) }, 'webhook not told');
      return fallback;
    }
  };
  return {
    atJoin: () => safely(() => tellPause(joined), undefined),
    atPause: (run) => safely(() => tellPause(run), undefined),
    atEnd: (waited) =>
      safely(async () => {
        if (waited.kind === 'stopped') return null;
        if (waited.kind === 'done' || waited.kind === 'held') {
          await runtime.notifier.notifyJoiner(waited.kind === 'held' ? 'held' : 'ended', waited.run, hook);
          return null;
        }
        await tellPause(waited.run);
        return (
          `catalog-sync: --notify ${webhookOrigin(url)} is not told when run ${joinedId} ends: ` +
          `this run was not queued (its source's run was) and stops waiting for that one now\n`
        );
      }, null),
  };
}
