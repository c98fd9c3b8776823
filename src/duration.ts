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

/**
 * The line refusing a duration option's value given with no unit (`24`), or null when it has one.
 * parseDuration reads a bare number as milliseconds, which no option meant in seconds, hours or days
 * wants: `status --list --since 24` listed the last 24 ms and said there was no run. `unit` is the
 * one the option is most often given in, for the fix the line shows: `--since 24h`.
 */
export function unitlessLine(option: string, text: string, unit: 's' | 'h' | 'd'): string | null {
  const bare = String(text).trim();
  if (!/^\d+(?:\.\d+)?$/.test(bare)) return null;
  return `${option}: ${bare} has no unit: give ${option} ${bare}${unit} (units: ms, s, m, h, d)`;
}

/** Milliseconds as messages say them: `30 s` for whole seconds, else `1500 ms`. */
export function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
