import { type Logger, pino } from 'pino';

export type { Logger };

/**
 * The one logger factory. Keys never reach a log: every path that could carry one is redacted,
 * and the client never puts the key anywhere but the Authorization header.
 */
export function createLogger(level = 'info', destination: NodeJS.WritableStream = process.stderr): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['apiKey', '*.apiKey', 'headers.authorization', '*.headers.authorization', 'authorization'],
        censor: '[redacted]',
      },
    },
    destination as pino.DestinationStream,
  );
}

/** A logger that writes nothing: the default for library code and unit tests. */
export const silentLogger: Logger = pino({ level: 'silent' });
