import { describe, expect, it } from 'vitest';
import { forEachReadingAhead } from '../../../src/sync/read-ahead.js';
import { type Gate, gate } from '../../support/gate.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Pages and writes that finish only when the test opens their gate, so the test decides the order
 * of events and sees what was asked for meanwhile.
 */
function controlled(count: number) {
  const log: string[] = [];
  const fetches: Gate[] = [];
  const writes: Gate[] = [];
  const source = (async function* () {
    try {
      for (let n = 1; n <= count; n++) {
        log.push(`fetch ${n}`);
        const fetched = gate();
        fetches[n] = fetched;
        await fetched.promise;
        yield n;
      }
    } finally {
      log.push('closed');
    }
  })();
  const each = async (n: number) => {
    log.push(`write ${n}`);
    const written = gate();
    writes[n] = written;
    await written.promise;
    log.push(`written ${n}`);
  };
  return { log, fetches, writes, source, each };
}

describe('forEachReadingAhead', () => {
  it('fetches the next page while a page is written, and no more than one page ahead', async () => {
    const { log, fetches, writes, source, each } = controlled(4);
    const read = forEachReadingAhead(source, each);
    await settle();
    fetches[1]?.open();
    await settle();
    expect(log).toEqual(['fetch 1', 'fetch 2', 'write 1']);
    // Page 2 comes while page 1 is still written: page 3 is asked for, page 2 waits for write 1.
    fetches[2]?.open();
    await settle();
    expect(log).toEqual(['fetch 1', 'fetch 2', 'write 1', 'fetch 3']);
    // Page 3 comes too: nothing more is asked for (pages 2 and 3 held, write 1 under way).
    fetches[3]?.open();
    await settle();
    expect(log).toEqual(['fetch 1', 'fetch 2', 'write 1', 'fetch 3']);
    writes[1]?.open();
    await settle();
    // Write 2 starts; page 3 has come already, so page 4 is asked for.
    expect(log.slice(4)).toEqual(['written 1', 'write 2', 'fetch 4']);
    writes[2]?.open();
    await settle();
    writes[3]?.open();
    fetches[4]?.open();
    await settle();
    writes[4]?.open();
    await read;
    expect(log.filter((entry) => entry.startsWith('written'))).toEqual([
      'written 1',
      'written 2',
      'written 3',
      'written 4',
    ]);
    expect(log).toContain('closed');
  });

  it('rejects with the failure of a page after writing the pages before it', async () => {
    const { log, fetches, writes, source, each } = controlled(3);
    const read = forEachReadingAhead(source, each);
    await settle();
    fetches[1]?.open();
    await settle();
    fetches[2]?.fail(new Error('page 2 failed'));
    await settle();
    // Write 1 is under way: the read does not end before it.
    expect(log).not.toContain('written 1');
    writes[1]?.open();
    await expect(read).rejects.toThrow('page 2 failed');
    expect(log).toContain('written 1');
  });

  it('rejects with the failure of a write before that of a later page, and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { log, fetches, writes, source, each } = controlled(3);
      const read = forEachReadingAhead(source, each);
      await settle();
      fetches[1]?.open();
      await settle();
      writes[1]?.fail(new Error('redis write failed'));
      await settle();
      fetches[2]?.fail(new Error('page 2 failed'));
      await expect(read).rejects.toThrow('redis write failed');
      await settle();
      expect(unhandled).toEqual([]);
      expect(log).not.toContain('fetch 3');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('closes the source after a failed write once the page asked for has come', async () => {
    const { log, fetches, writes, source, each } = controlled(5);
    const read = forEachReadingAhead(source, each);
    await settle();
    fetches[1]?.open();
    await settle();
    writes[1]?.fail(new Error('redis write failed'));
    await settle();
    // The failure is met when page 2 has come: page 3 was asked for meanwhile, and is the last.
    fetches[2]?.open();
    await expect(read).rejects.toThrow('redis write failed');
    fetches[3]?.open();
    await settle();
    expect(log).toEqual(['fetch 1', 'fetch 2', 'write 1', 'fetch 3', 'closed']);
  });
});
