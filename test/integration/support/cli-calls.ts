/**
 * The in-process CLI calls (runCli) not yet ended, by the Redis prefix they write under: a call that
 * outlives its test (the test timed out, or did not await it) would write under the test's prefix
 * after the prefix was removed, and those keys would stay in the shared Redis. removePrefix waits
 * for them first (settleCalls). No import of the CLI here: redis-prefix.ts loads this module.
 */

interface RunningCall {
  args: readonly string[];
  prefix: string | undefined;
  /** Resolves when the call has ended, however it ended. */
  ended: Promise<void>;
  /** Stops the call as SIGINT stops the CLI (its own emitter: CliIo.signals). */
  interrupt(): void;
}

const running = new Set<RunningCall>();

/** Prefixes whose test is over (closePrefix): a call under one is refused, not run. */
const closed = new Set<string>();

/** How long teardown waits for a call to end by itself, then once interrupted. */
export interface SettleBounds {
  graceMs: number;
  interruptedMs: number;
}

/**
 * Short: a call that outlives its test is a mistake of the test, and the suite is not to wait long
 * for it. A call ending by itself (a run's last chunk) takes well under a second here; an
 * interrupted one hands its jobs back, which its workers' close bounds.
 */
export const SETTLE_BOUNDS: SettleBounds = { graceMs: 1_000, interruptedMs: 5_000 };

/** Records a call started under `env`'s prefix until `call` ends; refuses one whose test is over. */
export function trackCall<T>(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  interrupt: () => void,
  start: () => Promise<T>,
): Promise<T> {
  assertOpen(args, env);
  const call = start();
  const entry: RunningCall = {
    args,
    prefix: env.CATALOG_SYNC_PREFIX,
    interrupt,
    ended: call.then(
      () => undefined,
      () => undefined,
    ),
  };
  running.add(entry);
  void entry.ended.then(() => running.delete(entry));
  return call;
}

/** Throws when `env`'s prefix belongs to a test that is over: whatever the call wrote would stay. */
export function assertOpen(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const prefix = env.CATALOG_SYNC_PREFIX;
  if (prefix !== undefined && closed.has(prefix))
    throw new Error(
      `catalog-sync ${args.join(' ')}: the test of prefix ${prefix} has ended (a call it did not await?)`,
    );
}

/** The test of `prefix` is over: no call under it is started any more (a rig's prefix, never reused). */
export function closePrefix(prefix: string): void {
  closed.add(prefix);
}

/**
 * Waits for the calls under `prefix` to end: `graceMs`, then those left are interrupted and waited
 * for `interruptedMs`. Resolves to the calls still running then (none, unless one ignores SIGINT).
 * With no call running under `prefix`, resolves at once: no timer, no wait.
 */
export async function settleCalls(prefix: string, bounds = SETTLE_BOUNDS): Promise<RunningCall[]> {
  const under = () => [...running].filter((call) => call.prefix === prefix);
  if (under().length === 0) return [];
  await endedWithin(under(), bounds.graceMs);
  const left = under();
  for (const call of left) call.interrupt();
  if (left.length > 0) await endedWithin(left, bounds.interruptedMs);
  return under();
}

/** The error of calls that did not end: each call's args, so the test that left it can be found. */
export function callsStillRunning(prefix: string, calls: readonly RunningCall[]): Error {
  const named = calls.map((call) => `catalog-sync ${call.args.join(' ')}`).join('; ');
  return new Error(
    `in-process CLI calls under prefix ${prefix} still running after an interrupt, past the prefix's removal: ${named}`,
  );
}

async function endedWithin(calls: readonly RunningCall[], ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    await Promise.race([Promise.all(calls.map((call) => call.ended)), bound]);
  } finally {
    clearTimeout(timer);
  }
}
