/**
 * How many requests the API says are left in its day, when it says so: the spec shows no rate
 * headers (section 8), but an API may send the common ones, and what it says is better than what
 * the tool learns from its 429s (issue 31). Pure: headers (lower-cased names) in, a count or null out.
 */
export function remainingRequests(headers: Record<string, string>): number | null {
  return rateFigure(headers, 'remaining');
}

/**
 * The daily limit the API says it holds the key to (`X-RateLimit-Limit` and its kin), when it says
 * so: read with the remaining count when that count shows the tool's own count wrong (the API's
 * day turned unseen, or its limit rose: sellers/window-rebase.ts).
 */
export function announcedLimit(headers: Record<string, string>): number | null {
  return rateFigure(headers, 'limit');
}

/** What an answer's rate headers say: left in the API's day, and its limit (null: unsaid). */
export interface RateFigures {
  remaining: number | null;
  limit: number | null;
}

export function rateFigures(headers: Record<string, string>): RateFigures {
  return { remaining: remainingRequests(headers), limit: announcedLimit(headers) };
}

/** Where each figure may stand: its own headers (the common spellings), or a `RateLimit` field. */
const FIGURE_SOURCES = {
  remaining: {
    headers: ['x-ratelimit-remaining', 'x-rate-limit-remaining', 'ratelimit-remaining'],
    field: /(?:^|[;,\s])remaining=(\d+)/i,
  },
  limit: {
    headers: ['x-ratelimit-limit', 'x-rate-limit-limit', 'ratelimit-limit'],
    field: /(?:^|[;,\s])limit=(\d+)/i,
  },
} as const;

function rateFigure(headers: Record<string, string>, name: 'remaining' | 'limit'): number | null {
  const { headers: names, field } = FIGURE_SOURCES[name];
  const named = headers[names[0]] ?? headers[names[1]] ?? headers[names[2]];
  const value = named ?? field.exec(headers.ratelimit ?? '')?.[1];
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  const count = Number(value.trim());
  return Number.isSafeInteger(count) ? count : null;
}
