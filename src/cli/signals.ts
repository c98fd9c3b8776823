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

/**
 * `wait` given up on SIGINT/SIGTERM, for what a command waits for before its run exists (a store
 * preparing its catalog: nothing queued, nothing sent): it rejects at once with one line,
 * `interrupted (SIGINT) <what>`, and the command exits 130/143. Before and after, the signals
 * are what they were (`run` installs onInterrupt once its run exists).
 */
export async function interruptible<T>(
  wait: (signal: AbortSignal) => Promise<T>,
  what: string,
  source: SignalSource = process,
): Promise<T> {
  const interrupt = onInterrupt(source);
  const given = new Promise<never>((_, reject) => {
    interrupt.signal.addEventListener(
      'abort',
      () => reject(new UsageError(`interrupted (${interrupt.name}) ${what}`, interrupt.exitCode())),
      { once: true },
    );
  });
  try {
    return await Promise.race([wait(interrupt.signal), given]);
  } finally {
    interrupt.dispose();
  }
}
