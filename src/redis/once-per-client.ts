import type { Redis } from 'ioredis';

/**
 * A one-time step per Redis client and key (a migration of a seller's data to a newer form): the
 * first call starts it, later calls share its promise, and a step that failed is tried again by the
 * next call. Per client, not per process: a test's clients each stand for a process of their own.
 */
export function oncePerClient(): (redis: Redis, key: string, step: () => Promise<void>) => Promise<void> {
  const started = new WeakMap<Redis, Map<string, Promise<void>>>();
  return (redis, key, step) => {
    let byKey = started.get(redis);
    if (!byKey) {
      byKey = new Map();
      started.set(redis, byKey);
    }
    let done = byKey.get(key);
    if (!done) {
      const steps = byKey;
      done = step();
      steps.set(key, done);
      done.catch(() => steps.delete(key));
    }
    return done;
  };
}
