import cliProgress from 'cli-progress';
import type { Logger } from '../logger.js';
import type { RunRecord } from '../runs/run-store.js';
import { formatDuration } from '../runs/summary.js';

/** How `run` shows a run going on: a bar on a terminal, a pino line every few seconds otherwise. */
export interface ProgressView {
  update(run: RunRecord): void;
  paused(until: number, now: number): void;
  stop(): void;
}

/** "paused until 00:00 UTC (in 3 h 12 min)" */
export function pausedMessage(until: number, now: number): string {
  const at = new Date(until).toISOString().slice(11, 16);
  return `paused until ${at} UTC (in ${formatDuration(Math.max(0, until - now))})`;
}

export function createProgressView(stream: NodeJS.WritableStream, logger: Logger): ProgressView {
  const tty = (stream as NodeJS.WriteStream).isTTY === true;
  return tty ? new BarView(stream) : new LogView(logger);
}

class BarView implements ProgressView {
  private readonly bar: cliProgress.SingleBar;
  private started = false;
  private status = '';

  constructor(stream: NodeJS.WritableStream) {
    this.bar = new cliProgress.SingleBar(
      {
        stream: stream as NodeJS.WriteStream,
        format: '{bar} {value}/{total} rows | {speed} rows/s | ETA {eta_formatted} {status}',
        hideCursor: true,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
  }

  update(run: RunRecord): void {
    const total = Math.max(run.total, run.settled, 1);
    const seconds = Math.max(0.001, (Date.now() - run.createdAt) / 1000);
    const payload = { speed: Math.round(run.settled / seconds), status: this.status };
    if (!this.started) {
      this.bar.start(total, run.settled, payload);
      this.started = true;
    }
    this.bar.setTotal(total);
    this.bar.update(run.settled, payload);
    this.status = '';
  }

  paused(until: number, now: number): void {
    this.status = `| ${pausedMessage(until, now)}`;
  }

  stop(): void {
    if (this.started) this.bar.stop();
  }
}

class LogView implements ProgressView {
  private lastLog = 0;
  private lastPauseLog = 0;

  constructor(private readonly logger: Logger) {}

  update(run: RunRecord): void {
    const now = Date.now();
    if (now - this.lastLog < 5000) return;
    this.lastLog = now;
    this.logger.info(
      { run: run.id, settled: run.settled, total: run.total, requests: run.requests },
      'progress',
    );
  }

  paused(until: number, now: number): void {
    if (now - this.lastPauseLog < 60_000) return;
    this.lastPauseLog = now;
    this.logger.warn({ until: new Date(until).toISOString() }, pausedMessage(until, now));
  }

  stop(): void {}
}
