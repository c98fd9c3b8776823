import type { ResetHeader } from './options.js';

/** What one key has spent in one day. Days are counted from the Unix epoch (spec 8: reset time "not shown"). */
export interface DailyUsage {
  day: number;
  used: number;
}

export interface QuotaDecision {
  allowed: boolean;
  /** The usage to keep: unchanged when refused (a 429 does not count). */
  usage: DailyUsage;
  /** Requests left today after this one. */
  remaining: number;
  /** Epoch ms at which the current day ends and the limit resets. */
  resetAtMs: number;
}

/** Decides whether one more request fits in the key's daily limit, and counts it if so. */
export function takeFromDailyLimit(
  usage: DailyUsage | undefined,
  limit: number,
  nowMs: number,
  dayLengthMs: number,
): QuotaDecision {
  const day = Math.floor(nowMs / dayLengthMs);
  const resetAtMs = (day + 1) * dayLengthMs;
  const used = usage && usage.day === day ? usage.used : 0;
  if (used >= limit) return { allowed: false, usage: { day, used }, remaining: 0, resetAtMs };
  return { allowed: true, usage: { day, used: used + 1 }, remaining: limit - used - 1, resetAtMs };
}

/** The headers that carry the limit on every answer while a limit is set. */
export function limitHeaders(limit: number, remaining: number): Record<string, string> {
  return { 'X-RateLimit-Limit': String(limit), 'X-RateLimit-Remaining': String(remaining) };
}

/** The header a 429 carries to say when the limit resets, in the form the sandbox was told to use. */
export function resetHeaders(form: ResetHeader, resetAtMs: number, nowMs: number): Record<string, string> {
  const secondsLeft = String(Math.max(1, Math.ceil((resetAtMs - nowMs) / 1000)));
  switch (form) {
    case 'retry-after':
      return { 'Retry-After': secondsLeft };
    case 'ratelimit-reset':
      return { 'RateLimit-Reset': secondsLeft };
    case 'x-ratelimit-reset':
      return { 'X-RateLimit-Reset': String(Math.ceil(resetAtMs / 1000)) };
    // Epoch milliseconds: a reset between two whole seconds (a test's short day) stays exact.
    case 'x-ratelimit-reset-ms':
      return { 'X-RateLimit-Reset': String(resetAtMs) };
    case 'none':
      return {};
  }
}
