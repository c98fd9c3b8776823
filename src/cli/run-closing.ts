import type { CliIo } from './program.js';
import { say } from './run-outcome.js';
import type { onInterrupt } from './signals.js';

type Interrupt = ReturnType<typeof onInterrupt>;

/**
 * SIGINT/SIGTERM once `run` has said how its run ended (its summary, or the line of a pause or of a
 * Redis fault), while it closes: its workers let go of the chunks they hold (up to the close
 * deadline, docs/operations.md), a dry run's queue goes, Redis closes. The launcher's bare
 * `interrupted (SIGINT)` was all an interrupt there got, leaving cron's mail to guess whether the
 * run was cut short. Nothing of the run is left to say or to lose by then: the line says so at once,
 * the workers' close is given up as its deadline gives it up (a chunk still held goes back to the
 * queue when its lock runs out), and the command exits 130/143. A second signal is not caught.
 *
 * `run` hands its own interrupt over once its outcome is said (`hear`); the closing ends once its
 * runtime is closed (withRunClosing): Redis' close is part of the closing too.
 */
export class RunClosing {
  private interrupt: Interrupt | null = null;
  private said = false;

  constructor(private readonly io: CliIo) {}

  /**
   * The run's interrupt means this from now on; heard already (while the outcome was being said),
   * the line comes now. `outcome`: what became of the run, e.g. `run … had ended`.
   */
  hear(interrupt: Interrupt, outcome: string): void {
    this.interrupt = interrupt;
    const sayIt = () => {
      this.said = true;
      say(this.io, closingInterruptedLine(interrupt.name, outcome));
    };
    if (interrupt.signal.aborted) sayIt();
    else interrupt.signal.addEventListener('abort', sayIt, { once: true });
  }

  /** Whether `interrupt` was handed over: the closing, not the run, ends its listening. */
  hears(interrupt: Interrupt): boolean {
    return this.interrupt === interrupt;
  }

  /** Aborted on an interrupt while closing: the waits it gives up (the workers' close). */
  get signal(): AbortSignal | undefined {
    return this.interrupt?.signal;
  }

  /** Listens no more (idempotent). */
  end(): void {
    this.interrupt?.dispose();
  }

  /** `code`, or 130/143 once interrupted while closing. */
  exitCode(code: number): number {
    return this.said && this.interrupt ? this.interrupt.exitCode() : code;
  }
}

/** The one line of an interrupt while `run` closes; `outcome` as `RunClosing.hear` takes it. */
export function closingInterruptedLine(signal: string, outcome: string): string {
  return (
    `catalog-sync: interrupted (${signal}) while closing: ${outcome}, as said above; only the closing was ` +
    'cut short (a chunk this process still held goes back to the queue when its lock runs out), nothing is lost.\n'
  );
}

/**
 * `body` with a closing that hears from when `body` hands it the run's interrupt until `body` is
 * over: `body`'s exit code, or 130/143 when interrupted while closing.
 */
export async function withRunClosing(
  io: CliIo,
  body: (closing: RunClosing) => Promise<number>,
): Promise<number> {
  const closing = new RunClosing(io);
  let code: number;
  try {
    code = await body(closing);
  } finally {
    closing.end();
  }
  return closing.exitCode(code);
}
