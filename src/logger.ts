import { createRequire } from 'node:module';
import type { Logger } from 'pino';
import type PinoPretty from 'pino-pretty';
import { pino } from './cjs-packages.js';
import { redactHeld } from './secret-forms.js';
import { jsonTerminalSafe, terminalSafeLine } from './terminal-safe.js';

export type { Logger };

/** `json`: one JSON object a line, for machines; `pretty`: one readable line, for a person. */
export type LogFormat = 'json' | 'pretty';

/**
 * The one logger factory. Keys never reach a log: every path that could carry one is redacted
 * (before either format sees the line), the client never puts the key anywhere but the
 * Authorization header, and a line that quotes any secret the process holds (secret-forms.ts: an
 * error's message echoing another seller's key or a store's token) has it cut, in every form. Times are ISO 8601 (UTC). Text quoted from a source, an API answer or Redis
 * never drives a terminal: in JSON, strings escape C0 controls (ESC included) and DEL and C1 are
 * escaped too; in pretty lines, every control character of a value shows as `\xHH`, so the only
 * escape sequences written are pino-pretty's own colours (and none without `colorize`).
 */
export function createLogger(
  level = 'info',
  destination: NodeJS.WritableStream = process.stderr,
  format: LogFormat = 'json',
  colorize = false,
): Logger {
  const write =
    format === 'pretty'
      ? prettyWriter(destination, colorize)
      : (line: string) => destination.write(jsonTerminalSafe(line));
  // One look at each line for every held secret's forms (their JSON-escaped form among them).
  const written = (line: string) => write(redactHeld(line));
  return pino()(
    {
      level,
      base: undefined,
      timestamp: pino().stdTimeFunctions.isoTime,
      redact: {
        paths: ['apiKey', '*.apiKey', 'headers.authorization', '*.headers.authorization', 'authorization'],
        censor: '[redacted]',
      },
    },
    { write: written },
  );
}

/** Pretty lines, one per record (`[2026-11-23T02:00:00.000Z] WARN: message {"seller":"…"}`). */
function prettyWriter(destination: NodeJS.WritableStream, colorize: boolean): (line: string) => void {
  // Required here, not imported: JSON logs (the default, and every import run by a machine) never
  // need pino-pretty, ~1 MB of heap held for the whole run otherwise.
  const { prettyFactory } = createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;
  const prettify = prettyFactory({ colorize, singleLine: true, translateTime: false });
  return (line) => {
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      destination.write(`${terminalSafeLine(line.trimEnd())}\n`);
      return;
    }
    destination.write(prettify(safeValues(record)));
  };
}

/** Every string (keys too) with its control characters shown as `\xHH`, newlines included. */
function safeValues(value: unknown): unknown {
  if (typeof value === 'string') return terminalSafeLine(value);
  if (Array.isArray(value)) return value.map(safeValues);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [terminalSafeLine(key), safeValues(inner)]),
    );
  }
  return value;
}

/** A logger that writes nothing: the default for library code and unit tests. */
export const silentLogger: Logger = pino()({ level: 'silent' });
