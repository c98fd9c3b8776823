import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { progressBarAllowed } from '../../src/config.js';
import { oneLine } from '../../src/seller-api/errors/one-line.js';
import {
  jsonTerminalSafe,
  quoteForMessage,
  terminalSafe,
  terminalSafeLine,
} from '../../src/terminal-safe.js';

/** Anything a terminal could take as a command: C0 but tab and newline, DEL, C1 (ESC and CSI among them). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** Text dense in what matters (every code below U+0180, controls included) with some wider characters. */
const text = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0x17f }).map((code) => String.fromCharCode(code)),
    fc.constantFrom('日', '\u2028', '\u{1F600}', '\uFEFF'),
  ),
  maxLength: 60,
});

describe('terminalSafe', () => {
  it.each<[string, string]>([
    ['plain text, é and 日本', 'plain text, é and 日本'],
    ['tab\tand\nnewline stay', 'tab\tand\nnewline stay'],
    ['\x1b]0;evil\x07', '\\x1b]0;evil\\x07'],
    ['\x1b[2J', '\\x1b[2J'],
    ['col\x1b[31mred\x1b[0m', 'col\\x1b[31mred\\x1b[0m'],
    ['cr\roverwrites', 'cr\\x0doverwrites'],
    ['nul\x00', 'nul\\x00'],
    ['del\x7f', 'del\\x7f'],
    ['c1 csi\x9b2J and nel\x85', 'c1 csi\\x9b2J and nel\\x85'],
    ['\x9f\xa0', '\\x9f\xa0'],
  ])('%j → %j', (text, shown) => {
    expect(terminalSafe(text)).toBe(shown);
  });

  it('terminalSafeLine also shows a newline as \\x0a', () => {
    expect(terminalSafeLine('a\nb\tc\x1b')).toBe('a\\x0ab\tc\\x1b');
  });

  it('never lets a control character through, and changes nothing else', () => {
    fc.assert(
      fc.property(text, (value) => {
        const safe = terminalSafe(value);
        return (
          !CONTROL.test(safe) &&
          !/[\x00-\x08\x0a-\x1f\x7f-\x9f]/.test(terminalSafeLine(value)) &&
          (CONTROL.test(value) || safe === value)
        );
      }),
    );
  });

  it('quoteForMessage cuts long text after escaping it', () => {
    const quoted = quoteForMessage(`\x1b${'x'.repeat(200)}`, 20);
    expect(quoted).toHaveLength(20);
    expect(quoted.startsWith('\\x1b')).toBe(true);
  });
});

describe('jsonTerminalSafe (status --json, the logger)', () => {
  it('escapes DEL and C1, which JSON.stringify leaves raw; JSON reads back the same value', () => {
    fc.assert(
      fc.property(fc.dictionary(text, text), (value) => {
        const json = jsonTerminalSafe(JSON.stringify(value));
        expect(json).not.toMatch(CONTROL);
        expect(JSON.parse(json)).toEqual(value);
      }),
    );
  });
});

describe('oneLine (API error reasons)', () => {
  it('shows the escape sequences of an API answer instead of passing them on', () => {
    expect(oneLine('bad\x1b]0;evil\x07 name\r\n\x1b[2J')).toBe('bad\\x1b]0;evil\\x07 name \\x1b[2J');
  });
});

describe('progressBarAllowed', () => {
  const tty = { isTTY: true } as unknown as NodeJS.WritableStream;
  const pipe = {} as NodeJS.WritableStream;
  it.each<[string, NodeJS.WritableStream, Record<string, string>, boolean]>([
    ['a terminal', tty, {}, true],
    ['a terminal with an empty NO_COLOR', tty, { NO_COLOR: '' }, true],
    ['a terminal with NO_COLOR=1', tty, { NO_COLOR: '1' }, false],
    ['a dumb terminal', tty, { TERM: 'dumb' }, false],
    ['a pipe or file', pipe, {}, false],
  ])('on %s: %s', (_case, stream, env, allowed) => {
    expect(progressBarAllowed(env, stream)).toBe(allowed);
  });
});
