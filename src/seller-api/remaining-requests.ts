/**
 * How many requests the API says are left in its day, when it says so: the spec shows no rate
 * headers (section 8), but an API may send the common ones, and what it says is better than what
 * the tool learns from its 429s (issue 31). Pure: headers (lower-cased names) in, a count or null out.
 */
export function remainingRequests(headers: Record<string, string>): number | null {
  const named =
    headers['x-ratelimit-remaining'] ?? headers['x-rate-limit-remaining'] ?? headers['ratelimit-remaining'];
  const value = named ?? /(?:^|[;,\s])remaining=(\d+)/i.exec(headers.ratelimit ?? '')?.[1];
  if (value === undefined || !/^\d+$/.test(value.trim())) return null;
  const count = Number(value.trim());
  return Number.isSafeInteger(count) ? count : null;
}
