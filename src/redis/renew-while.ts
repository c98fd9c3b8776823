/**
 * Calls `tick` every `everyMs` until the returned stop is called. The seam tests replace: their
 * "every" is a call of their own, not wall-clock milliseconds.
 */
export type Repeat = (tick: () => void, everyMs: number) => () => void;

/** A timer that never keeps a process alive that has nothing else to do. */
export const repeatEvery: Repeat = (tick, everyMs) => {
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Runs `work` while `renew` keeps what it holds alive (a claim, a lease, a mark with a TTL): called
 * every `everyMs`, its failure ignored (Redis out of reach for a moment: the next call tries again,
 * before what it renews runs out), stopped when `work` ends, whichever way.
 */
export async function renewWhile<T>(
  renew: () => Promise<unknown>,
  everyMs: number,
  work: () => Promise<T>,
  repeat: Repeat = repeatEvery,
): Promise<T> {
  const stop = repeat(() => {
    renew().catch(() => undefined);
  }, everyMs);
  try {
    return await work();
  } finally {
    stop();
  }
}
