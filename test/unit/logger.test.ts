import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLogFormat } from '../../src/config.js';
import { createLogger, type LogFormat } from '../../src/logger.js';
import { UsageError } from '../../src/usage-error.js';

const KEY = 'sk_live_do_not_log_me';
/** A value quoted from outside that would retitle the window and move the cursor (ESC, CSI, BEL). */
const HOSTILE = 'Lamp \x1b]0;owned\x07 \x9b2J\x1b[31mred';

/** Everything one logger writes, as text; `tty` pretends the stream is a terminal. */
function capture(tty = false) {
  const stream = Object.assign(new PassThrough(), tty ? { isTTY: true } : {});
  let text = '';
  stream.on('data', (chunk) => (text += chunk));
  return { stream, text: () => text };
}

function logOnce(format: LogFormat, colorize = false): string {
  const { stream, text } = capture();
  const logger = createLogger('info', stream, format, colorize);
  logger.info(
    { apiKey: KEY, request: { headers: { authorization: `Bearer ${KEY}` } }, title: HOSTILE },
    `row 3: ${HOSTILE}`,
  );
  return text();
}

/** Pretty lines may hold pino-pretty's own colours (SGR), and no other escape. */
const withoutColours = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('log lines', () => {
  it('JSON: one object a line, with an ISO time', () => {
    const lines = logOnce('json').trim().split('\n');
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0] as string) as { time: string; msg: string; title: string };
    expect(record.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // The text survives as data, escaped: JSON reads it back whole.
    expect(record.title).toBe(HOSTILE);
  });

  it('pretty: one readable line with the ISO time, level and message', () => {
    const text = logOnce('pretty');
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).toMatch(/^\[\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\] INFO: row 3: Lamp \\x1b\]0;owned\\x07/);
  });

  it.each([
    ['json', false],
    ['pretty', false],
    ['pretty', true],
  ] as const)(
    '%s (colour %s): the key is redacted and no control character reaches the terminal',
    (format, colour) => {
      const text = logOnce(format, colour);
      expect(text).not.toContain(KEY);
      expect(text).toContain('[redacted]');
      // Newline ends the line; tab is harmless; anything else (ESC, BEL, C1's CSI) is shown, not sent.
      expect(withoutColours(text)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    },
  );

  it('pretty in colour writes colours, and only those', () => {
    const text = logOnce('pretty', true);
    expect(text).toMatch(/\x1b\[[0-9;]*m/);
  });
});

describe('LOG_FORMAT', () => {
  it('defaults to pretty on a terminal (in colour unless NO_COLOR), JSON otherwise', () => {
    expect(readLogFormat({}, capture(true).stream)).toEqual({ format: 'pretty', colorize: true });
    expect(readLogFormat({ NO_COLOR: '1' }, capture(true).stream)).toEqual({
      format: 'pretty',
      colorize: false,
    });
    expect(readLogFormat({}, capture(false).stream)).toEqual({ format: 'json', colorize: false });
  });

  it('json or pretty forces the format; anything else is one line (exit 2)', () => {
    expect(readLogFormat({ LOG_FORMAT: 'json' }, capture(true).stream).format).toBe('json');
    expect(readLogFormat({ LOG_FORMAT: 'pretty' }, capture(false).stream)).toEqual({
      format: 'pretty',
      colorize: false,
    });
    expect(() => readLogFormat({ LOG_FORMAT: 'xml' }, capture().stream)).toThrow(UsageError);
    expect(() => readLogFormat({ LOG_FORMAT: 'xml' }, capture().stream)).toThrow(
      'LOG_FORMAT must be json or pretty, not "xml"',
    );
  });
});
