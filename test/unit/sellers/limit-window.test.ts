import { describe, expect, it } from 'vitest';
import { LimitWindows } from '../../../src/sellers/limit-window.js';

const DAY_START = Date.parse('2024-05-10T00:00:00.000Z');
const RESET = Date.parse('2024-05-10T15:30:00.000Z');
const DAY_MS = 24 * 3600 * 1000;

describe('LimitWindows: the API day as the tool learns it (issue 31)', () => {
  it('is the quota day until a reset announced by a 429 has passed, then begins at that reset', () => {
    const windows = new LimitWindows();
    windows.noteReset('s', RESET);
    expect(windows.start('s', RESET - 1, '00:00')).toBe(DAY_START);
    expect(windows.start('s', RESET, '00:00')).toBe(RESET);
    // The API's next day begins 24 h after its reset, not at --daily-reset.
    expect(windows.start('s', DAY_START + DAY_MS + 5, '00:00')).toBe(RESET);
    expect(windows.start('s', RESET + DAY_MS, '00:00')).toBe(RESET + DAY_MS);
  });

  it('takes a reset passed in another process as the start of the day its pause ends', () => {
    const windows = new LimitWindows();
    windows.noteReset('s', RESET + DAY_MS);
    windows.notePassed('s', RESET);
    expect(windows.start('s', RESET + 10, '00:00')).toBe(RESET);
  });

  it('keeps the window of a passed reset while the next announced one is ahead', () => {
    const windows = new LimitWindows();
    windows.noteReset('s', RESET);
    expect(windows.start('s', RESET + 10, '00:00')).toBe(RESET);
    windows.noteReset('s', RESET + 3000);
    windows.noteReset('s', RESET + 1000);
    expect(windows.start('s', RESET + 2000, '00:00')).toBe(RESET);
    expect(windows.start('s', RESET + 3000, '00:00')).toBe(RESET + 3000);
  });

  it('lets one request through after a reset until the API answered one of the window', () => {
    const windows = new LimitWindows();
    windows.noteLimit('s', 100);
    windows.noteReset('s', RESET);
    const start = windows.start('s', RESET + 5, '00:00');
    expect(windows.limitOf('s', start)).toBe(0);
    windows.noteOpen('s', start);
    expect(windows.limitOf('s', start)).toBe(100);
  });

  it("allows what the API's headers say is left, in this window only, over the learned limit", () => {
    const windows = new LimitWindows();
    windows.noteLimit('s', 100);
    windows.noteRemaining('s', DAY_START, 40, 20);
    expect(windows.limitOf('s', DAY_START)).toBe(60);
    // The latest answer holds: it saw the others' requests counted.
    windows.noteRemaining('s', DAY_START, 45, 10);
    expect(windows.limitOf('s', DAY_START)).toBe(55);
    // An answer of an earlier window changes nothing; another window has the learned limit.
    windows.noteRemaining('s', DAY_START - 1, 1, 0);
    expect(windows.limitOf('s', DAY_START)).toBe(55);
    expect(windows.limitOf('s', RESET)).toBe(100);
  });

  it('knows no limit until one is learned, nor one of 0', () => {
    const windows = new LimitWindows();
    expect(windows.limitOf('s', DAY_START)).toBeNull();
    windows.noteLimit('s', 0);
    expect(windows.limitOf('s', DAY_START)).toBeNull();
  });
});
