/**
 * A password given to a Redis that has none: ioredis says so with `console.warn("[WARN] …")` at every
 * connection it opens (ours, BullMQ's duplicates, each reconnect): three or more lines a run, outside
 * the log's format, that a log collector reads as noise. While routed, those lines reach `tell` once,
 * in the tool's words, and no more; any other console warning passes as it was.
 */
const UNNEEDED = /^\[WARN\] (?:This Redis server's `default` user|Redis server) does not require a password/;

/** Routes ioredis's warning to `tell` (once); the returned function puts console.warn back. */
export function routeUnneededPasswordWarning(tell: () => void): () => void {
  const original = console.warn;
  let told = false;
  const routed = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && UNNEEDED.test(args[0])) {
      if (!told) tell();
      told = true;
      return;
    }
    original.apply(console, args);
  };
  console.warn = routed;
  return () => {
    // Another route set since (a second runtime in this process) keeps its own until it ends.
    if (console.warn === routed) console.warn = original;
  };
}

/** The line for it: the Redis (password masked), where the password came from, what to do. */
export function unneededPasswordLine(at: string, from: string): string {
  return `Redis at ${at} needs no password, but ${from} gives one: whoever reaches it may read and write it without; set requirepass on it, or drop the password from ${from}`;
}
