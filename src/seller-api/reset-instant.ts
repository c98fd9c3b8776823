import { CLOCK_SKEW_MS, MAX_RESET_AHEAD_MS } from '../defaults.js';

/**
 * When a 429 ends (spec section 8 leaves the reset time and any rate headers "not shown").
 * Pure: headers (lower-cased names), the current instant and the seller's daily reset in, an instant out.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** `X-RateLimit-Reset` above this is epoch seconds (2001-09-09 onwards), else delta seconds. */
const EPOCH_SECONDS_FLOOR = 1e9;
/** ... and above this, epoch milliseconds. */
const EPOCH_MILLISECONDS_FLOOR = 1e12;

/**
 * The instant the daily limit resets: the latest sensible instant read from `Retry-After`
 * (seconds or HTTP date), `RateLimit-Reset` / `RateLimit: reset=` (delta seconds) or
 * `X-RateLimit-Reset` (epoch s, epoch ms or delta s); else the next `dailyReset` (HH:MM UTC) after now.
 */
export function resetInstant(headers: Record<string, string>, now: number, dailyReset: string): Date {
  const sensible = headerResets(headers, now)
    .map((at) => (at < now && at >= now - CLOCK_SKEW_MS ? now : at))
    .filter((at) => at >= now && at - now <= MAX_RESET_AHEAD_MS);
  if (sensible.length > 0) return new Date(Math.max(...sensible));
  return nextDailyReset(now, dailyReset);
}

/** The next instant strictly after `now` at `dailyReset` (HH:MM, UTC). */
export function nextDailyReset(now: number, dailyReset: string): Date {
  const { hours, minutes } = parseDailyReset(dailyReset);
  const day = new Date(now);
  const today = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), hours, minutes);
  return new Date(today > now ? today : today + DAY_MS);
}

/** Reads `HH:MM` (UTC, 24-hour). Throws a one-line RangeError naming the value. */
export function parseDailyReset(value: string): { hours: number; minutes: number } {
  const match = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(value.trim());
  if (!match) throw new RangeError(`daily reset must be HH:MM (UTC, 00:00 to 23:59), got "${value}"`);
  return { hours: Number(match[1]), minutes: Number(match[2]) };
}

function headerResets(headers: Record<string, string>, now: number): number[] {
  const header = (name: string): string | undefined => headers[name]?.trim() || undefined;
  const resets: Array<number | undefined> = [
    retryAfter(header('retry-after'), now),
    deltaSeconds(header('ratelimit-reset'), now),
    deltaSeconds(/(?:^|[;,\s])reset=(\d+(?:\.\d+)?)/i.exec(header('ratelimit') ?? '')?.[1], now),
    xRateLimitReset(header('x-ratelimit-reset') ?? header('x-rate-limit-reset'), now),
    deltaSeconds(header('x-ratelimit-reset-after'), now),
  ];
  return resets.filter((at): at is number => at !== undefined && Number.isFinite(at));
}

function retryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  return isNumber(value) ? deltaSeconds(value, now) : httpDate(value);
}

/**
 * `now` plus a delay in seconds. A whole number of seconds is a delay rounded up to whole seconds
 * (issue 31: a Retry-After of 2 said 1.3 s): the reset falls within the second before `now` plus it.
 * A daily reset is a time of day, a whole second, and the one within that second is taken: the reset
 * itself, not up to a second after it. Should the API round down, or its clock be a fraction of a
 * second apart from ours, the first request after the wake goes alone (limit-window.ts): one 429.
 */
function deltaSeconds(value: string | undefined, now: number): number | undefined {
  if (value === undefined || !isNumber(value)) return undefined;
  const at = now + Number(value) * 1000;
  return /^\d+$/.test(value) ? Math.floor(at / 1000) * 1000 : at;
}

function xRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  if (!isNumber(value)) return httpDate(value);
  const number = Number(value);
  if (number > EPOCH_MILLISECONDS_FLOOR) return number;
  if (number > EPOCH_SECONDS_FLOOR) return number * 1000;
  return now + number * 1000;
}

function httpDate(value: string): number | undefined {
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
}

function isNumber(value: string): boolean {
  return /^\d+(\.\d+)?$/.test(value);
}
