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
