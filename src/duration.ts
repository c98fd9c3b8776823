const UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration such as `7d`, `24h`, `30s`, `500ms`, `1.5m` or a bare number of milliseconds.
 * Returns null when the text is not a positive duration.
 */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * (UNITS_MS[match[2] ?? 'ms'] ?? 1);
  return Number.isFinite(ms) && ms >= 1 ? Math.round(ms) : null;
}

/** Milliseconds as messages say them: `30 s` for whole seconds, else `1500 ms`. */
export function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
