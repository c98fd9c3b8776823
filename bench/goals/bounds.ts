import type { GoalReport } from './result.js';
import { markdownTable } from './result.js';

/**
 * Issue 31's goals table: each row a figure some measurement reports (`measured.key`), its bound, and
 * the median of the runs' figures against it. Goal 5's rows/s against csv-parse is retired; the
 * Redis-per-product and 1M-row import rows are issue 12's goals 3 and 5, measured as they are.
 */
interface Bound {
  goal: string;
  key: string;
  /** The measurement (a goal of goals.ts) that reports the figure. */
  source: string;
  max: number;
  /** `<` instead of `≤`. */
  strict?: boolean;
  unit: string;
  digits: number;
}

export const BOUNDS: Bound[] = [
  {
    goal: 'fresh sync, 2,000 creates, C = 16, L = 20 ms',
    key: 'pace-20',
    source: 'pace',
    max: 1.05,
    unit: '× the bare client',
    digits: 2,
  },
  {
    goal: 'the same at L = 5 ms',
    key: 'pace-5',
    source: 'pace',
    max: 1.25,
    unit: '× the bare client',
    digits: 2,
  },
  {
    goal: 'Redis commands per created row (fresh sync)',
    key: 'commands-created',
    source: 'pace',
    max: 8,
    unit: '',
    digits: 1,
  },
  {
    goal: 'Redis commands per unchanged row (re-run with the list read)',
    key: 'commands-unchanged',
    source: 'pace',
    max: 3,
    unit: '',
    digits: 1,
  },
  {
    goal: 'Redis commands per unchanged row, `--incremental`',
    key: 'commands-incremental',
    source: 'pace',
    max: 1,
    unit: '',
    digits: 1,
  },
  {
    goal: 'CLI CPU per created row',
    key: 'cpu-ms-per-created-row',
    source: 'pace',
    max: 0.5,
    unit: 'ms',
    digits: 2,
  },
  {
    goal: 'a worker killed mid-run: its rows taken by the others',
    key: 'takeover-s',
    source: 'takeover',
    max: 15,
    unit: 's after the kill',
    digits: 1,
  },
  {
    goal: '429 answers per daily-limit crossing, C = 8',
    key: 'refused-per-crossing',
    source: 'daily-limit',
    max: 1,
    unit: '',
    digits: 2,
  },
  {
    goal: 'the same, no rate headers, after the first crossing',
    key: 'refused-per-learned-crossing',
    source: 'daily-limit',
    max: 1,
    unit: '',
    digits: 2,
  },
  {
    goal: 'first request after the reset',
    key: 'first-request-after-reset-s',
    source: 'daily-limit',
    max: 0.2,
    unit: 's',
    digits: 2,
  },
  {
    goal: 'Redis kept per product, nightly steady state',
    key: 'redis-bytes-per-product',
    source: '3',
    max: 120,
    unit: 'B',
    digits: 0,
  },
  {
    goal: '`import` of 1,000,000 rows: peak RSS',
    key: 'import-peak-rss-mb',
    source: '5',
    max: 200,
    strict: true,
    unit: 'MB',
    digits: 0,
  },
];

/**
 * Figures printed under the table, judged by no bound: what the bounds read against. The CPU bound is
 * absolute, and one machine of the same kind ran the same work 2.2 times slower on one day than on
 * another (BENCHMARKS.md, issue 31's tenth pass): the bare client's own CPU tells which day it is.
 */
export const REFERENCES: Array<Pick<Bound, 'goal' | 'key' | 'source' | 'unit' | 'digits'>> = [
  {
    goal: "for scale: the bare client's own CPU per created row, in the same runs",
    key: 'bare-cpu-ms-per-created-row',
    source: 'pace',
    unit: 'ms',
    digits: 2,
  },
];

/** The measurements the table needs, each run `RUNS` times. */
export const BOUND_SOURCES = [...new Set(BOUNDS.map((bound) => bound.source))];
export const RUNS = 3;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** The table from every run's reports, by source: a row whose figure no run gave says why. */
export function boundsTable(reports: Map<string, GoalReport[]>): string {
  const rows = BOUNDS.map((bound) => {
    const results = (reports.get(bound.source) ?? []).flatMap((report) => report.results);
    const runs = results.flatMap((r) => (r.measured?.key === bound.key ? [r.measured.value] : []));
    const bounded = `${bound.strict ? '<' : '≤'} ${bound.max}${bound.unit ? ` ${bound.unit}` : ''}`;
    const failed = results.find((r) => !r.measured && r.pass === null)?.figure.split('\n')[0];
    const note = failed && runs.length < RUNS ? ` (${RUNS - runs.length} not measured: ${failed})` : '';
    if (runs.length === 0) return [bound.goal, bounded, failed ?? 'not measured', '', '–'];
    const figure = median(runs);
    const pass = bound.strict ? figure < bound.max : figure <= bound.max;
    return [
      bound.goal,
      bounded,
      figure.toFixed(bound.digits),
      runs.map((v) => v.toFixed(bound.digits)).join(', ') + note,
      pass ? 'PASS' : 'FALL SHORT',
    ];
  });
  return markdownTable(['goal (issue 31)', 'bound', 'median', 'runs', 'verdict'], rows);
}

/** One line per reference figure: its median and runs, or that no run gave it. */
export function referenceLines(reports: Map<string, GoalReport[]>): string[] {
  return REFERENCES.map((reference) => {
    const results = (reports.get(reference.source) ?? []).flatMap((report) => report.results);
    const runs = results.flatMap((r) => (r.measured?.key === reference.key ? [r.measured.value] : []));
    if (runs.length === 0) return `${reference.goal}: not measured`;
    const shown = (value: number) => `${value.toFixed(reference.digits)} ${reference.unit}`.trim();
    return `${reference.goal}: ${shown(median(runs))} (${runs.map((v) => v.toFixed(reference.digits)).join(', ')})`;
  });
}
