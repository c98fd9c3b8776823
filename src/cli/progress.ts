import { createRequire } from 'node:module';
import type cliProgress from 'cli-progress';
import type { Logger } from '../logger.js';
import type { RunRecord } from '../runs/run-store.js';
import { formatDuration, untilText } from '../runs/summary.js';

/** How `run` shows a run going on: a bar on a terminal, a pino line every few seconds otherwise. */
export interface ProgressView {
  update(run: RunRecord): void;
  paused(until: number, now: number): void;
  stop(): void;
}

/** "paused until 00:00 UTC (in 3 h 12 min)", dated when not later today (summary.ts untilText). */
export function pausedMessage(until: number, now: number): string {
  return `paused until ${untilText(until, now)}`;
}

/**
 * `bar`: config.ts progressBarAllowed, true only on a terminal without NO_COLOR (or TERM=dumb). The bar
 * moves the cursor with escape sequences; without it no escape byte is written at all.
 */
export function createProgressView(
  stream: NodeJS.WritableStream,
  logger: Logger,
  bar: boolean,
): ProgressView {
  return bar ? new BarView(stream) : new LogView(logger);
}

/** Rows per second over the last few seconds: a pause or a slow start does not skew the ETA for long. */
export class RecentRate {
  private readonly samples: Array<{ at: number; settled: number }> = [];

  constructor(private readonly windowMs = 10_000) {}

  add(at: number, settled: number): number {
    this.samples.push({ at, settled });
    while (this.samples.length > 2 && (this.samples[0]?.at ?? at) < at - this.windowMs) this.samples.shift();
    const first = this.samples[0];
    if (!first || at - first.at < 500) return 0;
    return ((settled - first.settled) * 1000) / (at - first.at);
  }
}

class BarView implements ProgressView {
  private readonly bar: cliProgress.SingleBar;
  private readonly rate = new RecentRate();
  private started = false;
  private pausedUntil: number | null = null;

  constructor(stream: NodeJS.WritableStream) {
    // Required here, not imported: only a terminal shows the bar, and cli-progress with its width
    // tables (string-width, emoji-regex) took ~25 ms of CPU to load in every `run` logging instead.
    const { SingleBar, Presets } = createRequire(import.meta.url)('cli-progress') as typeof cliProgress;
    this.bar = new SingleBar(
      {
        stream: stream as NodeJS.WriteStream,
        format: '{bar} {value}/{total} rows | {speed} rows/s | {etaText}',
        hideCursor: true,
      },
      Presets.shades_classic,
    );
  }

  update(run: RunRecord): void {
    const now = Date.now();
    const total = Math.max(run.total, run.settled, 1);
    const speed = this.rate.add(now, run.settled);
    const left = total - run.settled;
    const eta =
      this.pausedUntil !== null && this.pausedUntil > now
        ? pausedMessage(this.pausedUntil, now)
        : speed > 0
          ? `ETA ${formatDuration(Math.round((left / speed) * 1000))}`
          : 'ETA —';
    const payload = { speed: Math.round(speed), etaText: eta };
    if (!this.started) {
      this.bar.start(total, run.settled, payload);
      this.started = true;
    }
    this.bar.setTotal(total);
    this.bar.update(run.settled, payload);
    this.pausedUntil = null;
  }

  paused(until: number): void {
    this.pausedUntil = until;
  }

  stop(): void {
    if (this.started) this.bar.stop();
    this.started = false;
  }
}

/** How often a pause that lasts is said again in the log (LogView.paused). */
const PAUSE_REPEAT_MS = 60 * 60_000;

export class LogView implements ProgressView {
  private lastLog = 0;
  private lastPauseLog = 0;
  /** The end of the pause the last pause line said: a new pause is said as it begins. */
  private lastPauseUntil: number | null = null;
  /** What the last progress line said: a run waiting out a daily limit says it once, not every 5 s. */
  private lastSaid = '';

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  update(run: RunRecord): void {
    // The wait loop's first look comes before the run has queued a row: a line of zeros says nothing.
    if (run.total === 0 && run.settled === 0 && run.requests === 0) return;
    const now = this.now();
    if (now - this.lastLog < 5000) return;
    const said = `${run.settled}/${run.total}/${run.requests}`;
    if (said === this.lastSaid) return;
    this.lastLog = now;
    this.lastSaid = said;
    this.logger.info(
      { run: run.id, settled: run.settled, total: run.total, requests: run.requests },
      'progress',
    );
  }

  /**
   * As a pause begins (a second pause within the hour too, a day scaled short), then once an hour
   * while it lasts: its line says its own end and wait, as the stderr line does. A daily limit met at
   * 02:30 lasts until midnight: once a minute put ~1,300 lines in the cron mail.
   */
  paused(until: number, now: number): void {
    if (until === this.lastPauseUntil && now - this.lastPauseLog < PAUSE_REPEAT_MS) return;
    this.lastPauseLog = now;
    this.lastPauseUntil = until;
    this.logger.warn({ until: new Date(until).toISOString() }, pausedMessage(until, now));
  }

  stop(): void {}
}
