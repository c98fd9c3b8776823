import { type Logger, pino } from 'pino';
import { jsonTerminalSafe } from './terminal-safe.js';

export type { Logger };

/**
 * The one logger factory. Keys never reach a log: every path that could carry one is redacted,
 * and the client never puts the key anywhere but the Authorization header. Lines are JSON, whose
 * strings escape C0 controls (ESC included); DEL and C1 controls, which JSON leaves raw, are
 * escaped too, so text quoted from a source, an API answer or Redis never drives a terminal.
 */
export function createLogger(level = 'info', destination: NodeJS.WritableStream = process.stderr): Logger {
  const safe = { write: (line: string) => destination.write(jsonTerminalSafe(line)) };
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['apiKey', '*.apiKey', 'headers.authorization', '*.headers.authorization', 'authorization'],
        censor: '[redacted]',
      },
    },
    safe,
  );
}

/** A logger that writes nothing: the default for library code and unit tests. */
export const silentLogger: Logger = pino({ level: 'silent' });
