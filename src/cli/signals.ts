import { UsageError } from './usage-error.js';

/**
 * Where SIGINT and SIGTERM come from: the process, or (a CLI run inside a test process, CliIo.signals)
 * an emitter of the caller's, so that stopping one such run goes the way a signal goes and stops
 * no other.
 */
export interface SignalSource {
  once(event: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
  off(event: 'SIGINT' | 'SIGTERM', listener: (signal: NodeJS.Signals) => void): unknown;
}

/**
 * Resolves with the name of the first SIGINT or SIGTERM: long-running commands (worker, sandbox,
 * dashboard) then stop gracefully. Tests pass their own function instead.
 */
export function untilSignal(source: SignalSource = process): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      source.off('SIGTERM', stop);
      source.off('SIGINT', stop);
      resolve(signal);
    };
    source.once('SIGTERM', stop);
    source.once('SIGINT', stop);
  });
}

/**
 * SIGINT/SIGTERM while `run` waits: stop reading the source, let the workers hand their jobs back,
 * say what became of the run, and exit 130/143 as a shell expects. A second signal is not caught.
 */
export function onInterrupt(source: SignalSource = process) {
  const controller = new AbortController();
  let name = '';
  const handler = (signal: NodeJS.Signals) => {
    name = signal;
    dispose();
    controller.abort();
  };
  const dispose = () => {
    source.off('SIGINT', handler);
    source.off('SIGTERM', handler);
  };
  source.once('SIGINT', handler);
  source.once('SIGTERM', handler);
  return {
    signal: controller.signal,
    get name() {
      return name;
    },
    exitCode: () => (name === 'SIGTERM' ? 143 : 130),
    dispose,
  };
}

/** Whether `code` is the exit code of an interrupt (onInterrupt's): 130 (SIGINT) or 143 (SIGTERM). */
export function isInterruptExitCode(code: number): boolean {
  return code === 130 || code === 143;
}

/** The line's words for `run` and `import` interrupted before their run is created. */
export const BEFORE_THE_RUN = 'before the run was created: no row was queued or sent';

/** What an interrupt's line says was interrupted: words, or words made as the signal comes (what a wait knows then). */
export type InterruptedWords = string | (() => string);

/**
 * SIGINT/SIGTERM heard from a command's start until its run is about to be created (`run`, `import`):
 * nothing is queued yet, so the command gives up what it waits for at once and ends with one line,
 * `interrupted (SIGINT) <what>`, exit 130/143. Unheard then, Node's default ended the process
 * silently (exit 130, no line in cron's mail). The signals come from the same source as the run's
 * own (CliIo.signals): no handler of the process's is added beside a test's emitter.
 * `during`: a wait given up at once (connecting, opening the source), what it opens later closed;
 * `check`: after a step let finish (one that may write, a seller's pause lifted: never half done).
 * `handOver` just before the run is created: its onInterrupt hears the signals from then on.
 */
export class BeforeRun {
  private readonly interrupt: ReturnType<typeof onInterrupt>;
  /** What the line says was interrupted: the innermost wait's words (a store preparing its file). */
  private readonly whats: InterruptedWords[];
  private line = '';

  constructor(what: InterruptedWords, source: SignalSource = process) {
    this.whats = [what];
    this.interrupt = onInterrupt(source);
    // Worded as the signal comes, before any wait hears it: the wait under way then is the one said.
    this.interrupt.signal.addEventListener(
      'abort',
      () => {
        const what = this.whats.at(-1) ?? '';
        this.line = `interrupted (${this.interrupt.name}) ${typeof what === 'string' ? what : what()}`;
      },
      { once: true },
    );
  }

  get signal(): AbortSignal {
    return this.interrupt.signal;
  }

  /** Throws the one line (a UsageError, exit 130/143) once interrupted. */
  check(): void {
    if (this.interrupt.signal.aborted) throw this.error();
  }

  /**
   * `work`, given up at once when interrupted (the line, as `check` throws it); what it resolves to
   * later goes to `abandon` (to be closed). `what`: the line's words while it waits, if its own.
   */
  async during<T>(
    work: (signal: AbortSignal) => Promise<T>,
    options: { what?: InterruptedWords; abandon?: (late: T) => unknown } = {},
  ): Promise<T> {
    this.check();
    if (options.what) this.whats.push(options.what);
    let givenUp: UsageError | null = null;
    let giveUp = () => {};
    const given = new Promise<never>((_, reject) => {
      giveUp = () => {
        givenUp = this.error();
        reject(givenUp);
      };
      this.interrupt.signal.addEventListener('abort', giveUp, { once: true });
    });
    const running = work(this.interrupt.signal);
    try {
      return await Promise.race([running, given]);
    } catch (error) {
      // Given up while it ran: whatever it opens meanwhile is closed, whatever it meets unheard.
      if (error === givenUp) running.then(options.abandon, () => undefined).catch(() => undefined);
      throw error;
    } finally {
      this.interrupt.signal.removeEventListener('abort', giveUp);
      if (options.what) this.whats.pop();
    }
  }

  /** Listens no more (idempotent): the run's own onInterrupt takes over, or the command is over. */
  handOver(): void {
    this.interrupt.dispose();
  }

  private error(): UsageError {
    return new UsageError(this.line, this.interrupt.exitCode());
  }
}

/**
 * `wait` given up on SIGINT/SIGTERM, for what a command waits for before its run exists (a store
 * preparing its catalog: nothing queued, nothing sent): it rejects at once with one line,
 * `interrupted (SIGINT) <what>`, and the command exits 130/143. Before and after, the signals
 * are what they were. `run` and `import` use their BeforeRun instead, which hears them from their start.
 */
export async function interruptible<T>(
  wait: (signal: AbortSignal) => Promise<T>,
  what: InterruptedWords,
  source: SignalSource = process,
): Promise<T> {
  const before = new BeforeRun(what, source);
  try {
    return await before.during(wait);
  } finally {
    before.handOver();
  }
}
