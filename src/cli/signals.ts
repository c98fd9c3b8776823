import { UsageError } from './usage-error.js';

/**
 * Resolves with the name of the first SIGINT or SIGTERM: long-running commands (worker, sandbox,
 * dashboard) then stop gracefully. Tests pass their own function instead.
 */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

/**
 * SIGINT/SIGTERM while `run` waits: stop reading the source, let the workers hand their jobs back,
 * say what became of the run, and exit 130/143 as a shell expects. A second signal is not caught.
 */
export function onInterrupt() {
  const controller = new AbortController();
  let name = '';
  const handler = (signal: NodeJS.Signals) => {
    name = signal;
    dispose();
    controller.abort();
  };
  const dispose = () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
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
export async function interruptible<T>(wait: (signal: AbortSignal) => Promise<T>, what: string): Promise<T> {
  const interrupt = onInterrupt();
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
