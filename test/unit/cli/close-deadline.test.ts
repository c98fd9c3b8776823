import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeDeadlineMs, closeWithinDeadline } from '../../../src/cli/close-deadline.js';

/** The two things the deadline reads: whether Redis is ready, and the configured deadline. */
function runtimeOf(status: string, closeDeadlineMs = 10_000) {
  return { redis: { status }, config: { closeDeadlineMs } } as unknown as Parameters<
    typeof closeWithinDeadline
  >[0];
}

describe('the close deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is the configured one while Redis is ready, 1 s at most without it', () => {
    expect(closeDeadlineMs(runtimeOf('ready'))).toBe(10_000);
    expect(closeDeadlineMs(runtimeOf('reconnecting'))).toBe(1_000);
    expect(closeDeadlineMs(runtimeOf('end', 500))).toBe(500);
  });

  it('gives up on a close that never ends once the deadline passes, and not before', async () => {
    let done = false;
    const closing = closeWithinDeadline(runtimeOf('ready', 500), new Promise(() => {})).then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await closing;
    expect(done).toBe(true);
  });

  it('ends with a close that ends first, leaving no timer behind; its failure goes to the caller', async () => {
    await closeWithinDeadline(runtimeOf('ready'), Promise.resolve());
    expect(vi.getTimerCount()).toBe(0);
    await expect(closeWithinDeadline(runtimeOf('ready'), Promise.reject(new Error('no')))).rejects.toThrow(
      'no',
    );
  });

  it('gives up at once when its signal aborts (an interrupt while `run` closes), or is aborted already', async () => {
    const interrupt = new AbortController();
    let done = false;
    const closing = closeWithinDeadline(runtimeOf('ready'), new Promise(() => {}), interrupt.signal).then(
      () => {
        done = true;
      },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    interrupt.abort();
    await closing;
    expect(done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    await closeWithinDeadline(runtimeOf('ready'), new Promise(() => {}), interrupt.signal);
  });
});
