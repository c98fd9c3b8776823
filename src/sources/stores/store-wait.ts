import { STORE_MAX_WAIT_MS, STORE_WAIT_SAID_MS } from '../../defaults.js';
import { type StoreReadOptions, sleepOf } from './types.js';

/**
 * Waits as a store asked (a 429 or 503 with Retry-After, Shopify's throttle), STORE_MAX_WAIT_MS at
 * most: a wrong header must not hang a run. A wait of STORE_WAIT_SAID_MS or more is said once as it
 * begins (`onWait`): for minutes nothing else moves, and `status` only says `running`. The wait ends
 * at once when the read is given up (`signal`: the CLI interrupted).
 */
export async function waitAsAsked(
  /** `<store>: the store answered 429 on /products offset 99`: what asked for the wait. */
  why: string,
  /** What the store asked for, in ms; null when it said nothing (no Retry-After). */
  askedMs: number | null,
  /** What is waited when the store said nothing. */
  fallbackMs: number,
  options: Pick<StoreReadOptions, 'sleep' | 'signal' | 'now' | 'onWait'>,
): Promise<void> {
  const ms = Math.min(STORE_MAX_WAIT_MS, Math.max(0, askedMs ?? fallbackMs));
  if (ms >= STORE_WAIT_SAID_MS) options.onWait?.(waitLine(why, askedMs, ms, (options.now ?? Date.now)()));
  await sleepOf(options)(ms);
}

/**
 * `<why> and asked to wait 400 s: waiting 300 s (the longest wait catalog-sync takes), resuming at
 * 14:02:31 UTC`: what the store asked, what is waited, and when the read goes on.
 */
export function waitLine(why: string, askedMs: number | null, ms: number, now: number): string {
  const asked =
    askedMs === null ? `${why} with no Retry-After` : `${why} and asked to wait ${seconds(askedMs)}`;
  const waiting =
    askedMs === null
      ? `: waiting ${seconds(ms)}`
      : ms < askedMs
        ? `: waiting ${seconds(ms)} (the longest wait catalog-sync takes)`
        : '';
  const resuming = new Date(now + ms).toISOString().slice(11, 19);
  return `${asked}${waiting}${waiting ? ',' : ':'} resuming at ${resuming} UTC`;
}

function seconds(ms: number): string {
  return `${Math.ceil(ms / 1000)} s`;
}
