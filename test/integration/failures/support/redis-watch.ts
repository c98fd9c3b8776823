import type { Redis } from 'ioredis';
import { expect } from 'vitest';

/** `used_memory` of the server, in bytes. */
export async function usedMemory(redis: Redis): Promise<number> {
  const match = /^used_memory:(\d+)/m.exec(await redis.info('memory'));
  return Number(match?.[1] ?? 0);
}

/** How many commands the server refused for memory so far (`INFO errorstats`). */
export async function oomErrors(redis: Redis): Promise<number> {
  const match = /^errorstat_OOM:count=(\d+)/m.exec(await redis.info('errorstats'));
  return Number(match?.[1] ?? 0);
}

/**
 * Watches the server for its first refusal for memory, every few milliseconds, and takes `sample()`
 * (e.g. the sandbox's request count) the moment it is seen. `stop()` resolves to that sample, or
 * null when no write was refused.
 */
export function watchFirstOom<T>(redis: Redis, sample: () => T, everyMs = 5): { stop(): Promise<T | null> } {
  let seen: T | null = null;
  let running = true;
  const loop = (async () => {
    while (running && seen === null) {
      if ((await oomErrors(redis)) > 0) {
        seen = sample();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

/** Exactly one line on stderr, matching `pattern`, and no stack frame. */
export function expectOneLine(stderr: string, pattern: RegExp): void {
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(pattern)]);
}

/** The skus of the sandbox's POST /products requests that were applied, with how often each was sent. */
export function createsBySku(
  requests: Array<{ method: string; path: string; body: unknown; status: unknown }>,
) {
  const counts = new Map<string, number>();
  for (const request of requests) {
    if (request.method !== 'POST' || request.path !== '/products') continue;
    const sku = String((request.body as { sku?: unknown } | undefined)?.sku);
    counts.set(sku, (counts.get(sku) ?? 0) + 1);
  }
  return counts;
}
