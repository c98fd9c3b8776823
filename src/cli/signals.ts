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
