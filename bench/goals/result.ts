/** One line of the goals table: a measured figure next to its bound (issue 12, "Goals"). */
export interface GoalResult {
  goal: string;
  figure: string;
  bound: string;
  /** null: a figure reported without a bound (the profile summary), or not measured. */
  pass: boolean | null;
  /** What the figure was measured on, and anything seen on the way (shown under the table). */
  note?: string;
  /** The figure as a number, under a name issue 31's bounds table reads it by (bounds.ts). */
  measured?: { key: string; value: number };
}

/** Extra tables a goal prints under the summary (the per-module profile, per-command counts). */
export interface GoalReport {
  results: GoalResult[];
  details?: string[];
}

const verdict = (pass: boolean | null) => (pass === null ? '–' : pass ? 'PASS' : 'FALL SHORT');

/** A Markdown table, so that it can be pasted into BENCHMARKS.md as it is. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function goalTable(results: GoalResult[]): string {
  return markdownTable(
    ['goal', 'figure', 'bound', 'verdict'],
    results.map((r) => [r.goal, r.figure, r.bound, verdict(r.pass)]),
  );
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const count = (n: number) => Math.round(n).toLocaleString('en-US');
