import { settleLostRows } from '../queue/lost-chunks.js';
import { LostRowsWatch } from '../queue/lost-rows-watch.js';
import { RunStateLostError } from '../redis/health.js';
import { withinRedisDeadline } from '../redis/watch.js';
import type { RunRecord } from '../runs/run-store.js';
import type { ProgressView } from './progress.js';
import type { Runtime } from './runtime.js';

export type WaitResult =
  | { kind: 'done'; run: RunRecord }
  | { kind: 'held'; run: RunRecord }
  | { kind: 'unauthorized'; run: RunRecord }
  | { kind: 'paused'; run: RunRecord; until: number }
  | { kind: 'unreachable'; run: RunRecord; failure: string; noApi: boolean }
  | { kind: 'stopped' };

/**
 * Waits until every row of the run is settled (`done`, or `held` by a guard), showing progress.
 * Returns early when the seller's key is rejected (exit 3), when no request reaches the API (exit 6)
 * or no API answers under the base URL (exit 2),
 * or on a daily-limit pause when the user asked not to wait (exit 4).
 */
export async function waitForRun(
  runtime: Runtime,
  runId: string,
  options: {
    wait: boolean;
    progress: ProgressView;
    pollMs?: number;
    now?: () => number;
    signal?: AbortSignal;
    /** Ends a poll's pause early: this process's workers are done with the run. */
    wake?: RunWake;
    /** A daily pause the run waits out begins (once per pause, with its end). */
    onWaiting?: (run: RunRecord, until: number) => Promise<void>;
    /** Each look at the run, before anything is decided from it (run-plan-echo.ts). */
    onLook?: (run: RunRecord) => Promise<void>;
  },
): Promise<WaitResult> {
  const now = options.now ?? Date.now;
  let waitingUntil: number | null = null;
  const lostRows = lostRowsWatch(runtime, runId, now);
  for (;;) {
    if (options.signal?.aborted) return { kind: 'stopped' };
    const run = await withinRedisDeadline(
      runtime.config.redisUrl,
      runtime.runs.get(runId),
      // Longer than a Redis restart takes; shorter than a person's patience at the terminal.
      runtime.config.redisDeadlineMs,
    );
    if (!run) throw new RunStateLostError(runId);
    await options.onLook?.(run);
    if (run.state === 'done' || run.state === 'held' || run.state === 'cancelled') {
      options.progress.update(run);
      return run.state === 'held' ? { kind: 'held', run } : { kind: 'done', run };
    }
    const seller = await runtime.sellers.status(run.sellerRef, run.dailyReset);
    // A run in a queue of its own (a dry run) is stopped by its key's 401 without pausing its seller.
    if (seller.authRejected || run.keyRejectedAt !== undefined) return { kind: 'unauthorized', run };
    if (seller.unreachable) {
      const { cause, noApi } = seller.unreachable;
      return { kind: 'unreachable', run, failure: cause, noApi: noApi === true };
    }
    if (seller.pausedUntil !== null) {
      if (!options.wait) return { kind: 'paused', run, until: seller.pausedUntil };
      if (seller.pausedUntil !== waitingUntil) await options.onWaiting?.(run, seller.pausedUntil);
      options.progress.paused(seller.pausedUntil, now());
    }
    waitingUntil = seller.pausedUntil;
    options.progress.update(run);
    // A run that does not move may wait on a chunk Redis lost: its rows are settled, and it ends. Not
    // while its seller is paused (a daily limit: hours): it is idle for that, and a look reads every
    // one of its jobs and outcomes; the first poll after the pause lifts looks, if it is still idle.
    if (seller.pausedUntil === null) await lostRows.observe(run);
    await (options.wake ?? new RunWake()).pause(options.pollMs ?? 250);
  }
}

/**
 * The wait's look for rows of the run that nothing holds (a chunk Redis lost in a failover or a
 * flush), once the run has been idle for a lock and a stall check: without it the wait would never
 * end. A look that fails (Redis away) is logged; the next read of the run meets Redis' state.
 */
function lostRowsWatch(runtime: Runtime, runId: string, now: () => number): LostRowsWatch {
  const deps = { ...runtime, prefix: runtime.config.prefix };
  const idleMs = runtime.config.lockDurationMs + runtime.config.stallCheckMs;
  return new LostRowsWatch(
    idleMs,
    () =>
      settleLostRows(deps, runId).catch((error: unknown) =>
        runtime.logger.warn({ run: runId, err: String(error) }, 'could not look for rows no chunk holds'),
      ),
    now,
  );
}

/**
 * The pause between two looks at a run, cut short by `wake()`: a run that this process's workers end
 * is seen at once, not up to a poll later (a 2,000-row run at the latency bound lasts ~2.5 s; half a
 * 250 ms poll is 5% of it, issue 12).
 */
export class RunWake {
  private woken: (() => void) | null = null;

  wake(): void {
    this.woken?.();
  }

  pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.woken = null;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.woken = end;
    });
  }
}
