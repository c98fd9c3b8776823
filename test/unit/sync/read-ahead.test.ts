import { describe, expect, it } from 'vitest';
import { forEachReadingAhead } from '../../../src/sync/read-ahead.js';

/** A source of pages that logs when each is asked for, and fails at `failAt` (1-based) if given. */
function pages(count: number, log: string[], failAt?: number) {
  return (async function* () {
    try {
      for (let n = 1; n <= count; n++) {
        log.push(`fetch ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (n === failAt) throw new Error(`page ${n} failed`);
        yield n;
      }
    } finally {
      log.push('closed');
    }
  })();
}

describe('forEachReadingAhead', () => {
  it('asks for the next page before the current one is handled, and no further', async () => {
    const log: string[] = [];
    await forEachReadingAhead(pages(3, log), async (n) => {
      log.push(`write ${n} start`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.push(`write ${n} end`);
    });
    expect(log).toEqual([
      'fetch 1',
      'fetch 2',
      'write 1 start',
      'write 1 end',
      'fetch 3',
      'write 2 start',
      'write 2 end',
      // Asked for while page 3 is written: the source has no page 4.
      'closed',
      'write 3 start',
      'write 3 end',
    ]);
  });

  it('handles every page once, in order', async () => {
    const seen: number[] = [];
    await forEachReadingAhead(pages(5, []), async (n) => {
      seen.push(n);
    });
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('rejects with the failure of a page after handling the pages before it', async () => {
    const seen: number[] = [];
    const read = forEachReadingAhead(pages(4, [], 3), async (n) => {
      seen.push(n);
    });
    await expect(read).rejects.toThrow('page 3 failed');
    expect(seen).toEqual([1, 2]);
  });

  it('rejects with the failure of a write, closes the source, and leaves no rejection unhandled', async () => {
    const log: string[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      // Page 2 fails while page 1 is written and its write fails too: the write's error is the one.
      const read = forEachReadingAhead(pages(3, log, 2), async () => {
        throw new Error('redis write failed');
      });
      await expect(read).rejects.toThrow('redis write failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).toEqual([]);
      expect(log).toContain('closed');
      expect(log).not.toContain('fetch 3');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('closes the source after a failed write once the page asked for has come', async () => {
    const log: string[] = [];
    const read = forEachReadingAhead(pages(5, log), async () => {
      throw new Error('redis write failed');
    });
    await expect(read).rejects.toThrow('redis write failed');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(log).toEqual(['fetch 1', 'fetch 2', 'closed']);
  });
});
