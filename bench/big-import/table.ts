import type { ScenarioResult } from './scenario.js';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const count = (n: number) => n.toLocaleString('en-US');

type Line = [label: string, value: (r: ScenarioResult) => number, format: (n: number) => string];

const LINES: Line[] = [
  ['rows read when the producer blocked (run total)', (r) => r.blocked?.rowsRead ?? r.rows, count],
  ['waiting jobs when it blocked', (r) => r.blocked?.waitingJobs ?? 0, count],
  ['seconds from `import` to the block', (r) => r.blocked?.seconds ?? 0, (n) => n.toFixed(1)],
  ['importer RSS growth over the 4 s blocked', (r) => r.plateau.importerRssGrowth, mib],
  ['queue memory growth over the 4 s blocked', (r) => r.plateau.queueGrowth, mib],
  ['importer peak RSS, no worker', (r) => r.plateau.importerRssPeak, mib],
  ['importer peak RSS, whole import', (r) => r.importerRssPeak, mib],
  ['worker peak RSS', (r) => r.workerRssPeak, mib],
  ['sandbox peak RSS (holds every product)', (r) => r.sandboxRssPeak, mib],
  ['Redis: queue peak (jobs, events aside)', (r) => r.queuePeak, mib],
  ['Redis: queue event stream peak', (r) => r.eventsPeak, mib],
  ['Redis used_memory peak − baseline, no worker', (r) => r.redisUsedPeakBlocked, mib],
  ['Redis used_memory peak − baseline, syncing', (r) => r.redisUsedPeakSyncing, mib],
  ['Redis used_memory after the run − baseline', (r) => r.redisUsedAfter, mib],
  ['kept: run data (7 days)', (r) => r.kept.run, mib],
  ['kept: run data, bytes per row', (r) => r.kept.run / r.rows, (n) => n.toFixed(0)],
  ['kept: seller id map', (r) => r.kept.seller, mib],
  ['kept: seller id map, bytes per row', (r) => r.kept.seller / r.rows, (n) => n.toFixed(0)],
  ['kept: queue (failed jobs, ids) and events', (r) => r.kept.queue + r.kept.events, mib],
  ['sync rows/s (worker start → run done)', (r) => r.rows / r.syncSeconds, (n) => n.toFixed(0)],
  ['seconds, `import` → run done', (r) => r.totalSeconds, (n) => n.toFixed(1)],
];

/** A Markdown table, one column per scenario, then the ratio of the last to the first. */
export function resultTable(results: ScenarioResult[]): string {
  const first = results[0];
  const last = results.at(-1);
  if (!first || !last) return '';
  const header = ['measure', ...results.map((r) => `${count(r.rows)} rows`), 'ratio'];
  const rows = LINES.map(([label, value, format]) => {
    const ratio = value(first) === 0 ? '–' : (value(last) / value(first)).toFixed(2);
    return [label, ...results.map((r) => format(value(r))), ratio];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Bytes per row of each kept run key, one column per scenario. */
export function keptRunKeysTable(results: ScenarioResult[]): string {
  const parts = [...new Set(results.flatMap((r) => Object.keys(r.keptRunKeys)))].sort();
  const lines = [
    `| run key | ${results.map((r) => `${count(r.rows)} rows: bytes/row`).join(' | ')} |`,
    `|---|${results.map(() => '---:').join('|')}|`,
  ];
  for (const part of parts) {
    lines.push(
      `| ${part} | ${results.map((r) => ((r.keptRunKeys[part] ?? 0) / r.rows).toFixed(1)).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}
