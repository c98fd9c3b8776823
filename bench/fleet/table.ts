import type { FleetFigures } from './connections.js';
import type { FairShare } from './fair-share.js';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const count = (n: number) => n.toLocaleString('en-US');

/** Part 1's table: one line per build and size, idle then busy. */
export function fleetTable(rows: readonly FleetFigures[]): string {
  const lines = [
    '| design | sellers | registered in | idle: connections | idle: RSS steady / peak | idle: Redis CPU | busy: connections (max) | busy: RSS peak | busy: all runs done | runs/s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const idle =
      'failed' in row.idle
        ? [`failed: ${row.idle.failed}`, '', '']
        : [
            String(row.idle.connectionsLast),
            `${mib(row.idle.lastRss)} / ${mib(row.idle.peakRss)}`,
            `${row.idle.redisCpuPercent.toFixed(1)}% of a core`,
          ];
    const busy =
      'failed' in row.busy
        ? [`failed: ${row.busy.failed}`, '', '', '']
        : [
            String(row.busy.connectionsMax),
            mib(row.busy.peakRss),
            row.busy.runsDone === row.sellers
              ? `${row.busy.seconds.toFixed(1)} s`
              : `${count(row.busy.runsDone)} of ${count(row.sellers)} in ${row.busy.seconds.toFixed(0)} s`,
            (row.busy.runsDone / row.busy.seconds).toFixed(1),
          ];
    lines.push(
      `| ${row.build} | ${count(row.sellers)} | ${row.registerSeconds.toFixed(1)} s | ${[...idle, ...busy].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/** Part 2's table: one line per --sellers-at-once. */
export function fairShareTable(rows: readonly FairShare[]): string {
  const lines = [
    '| --sellers-at-once | small seller: import → first write | → run done | large run then: rows settled | large queue before the import: waiting / active jobs |',
    '|---|---:|---:|---:|---:|',
  ];
  const s = (x: number | null) => (x === null ? 'not within 60 s' : `${x.toFixed(2)} s`);
  for (const row of rows) {
    const share =
      row.largeTotal > 0 ? ` (${((100 * row.largeSettledThen) / row.largeTotal).toFixed(0)}%)` : '';
    lines.push(
      `| ${row.sellersAtOnce} | ${s(row.firstWriteSeconds)} | ${s(row.doneSeconds)} | ${count(row.largeSettledThen)} of ${count(row.largeTotal)}${share} | ${row.largeQueueThen.waiting} / ${row.largeQueueThen.active} |`,
    );
  }
  return lines.join('\n');
}
