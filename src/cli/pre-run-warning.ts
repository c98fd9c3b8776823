import { readLogFormat } from '../config.js';
import { createLogger } from '../logger.js';
import { terminalSafeLine } from '../terminal-safe.js';
import type { CliIo } from './program.js';

/**
 * A warning said before the command opens its runtime (and its logger): in the format the tool's
 * logs take, so that a log collector reading JSON lines (LOG_FORMAT=json, or unset off a terminal)
 * gets one JSON line at level warn, as every other warning; for a person, the plain line
 * `catalog-sync: warning: …`. A LOG_FORMAT of neither is refused by the command itself: here the
 * plain line is written.
 */
export function writePreRunWarning(io: Pick<CliIo, 'env' | 'stderr'>, line: string): void {
  let format: 'json' | 'pretty' = 'pretty';
  try {
    format = readLogFormat(io.env, io.stderr).format;
  } catch {
    // The command refuses that LOG_FORMAT in its own line (exit 2).
  }
  if (format === 'json') createLogger('warn', io.stderr, 'json').warn(line);
  else io.stderr.write(`catalog-sync: warning: ${terminalSafeLine(line)}\n`);
}
