import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunWake } from '../../src/cli/wait-for-run.js';

describe('RunWake: the pause between two looks at a run', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const settledWithin = async (pause: Promise<void>, ms: number) => {
    let settled = false;
    void pause.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(ms);
    return settled;
  };

  it('lasts its whole length when nothing wakes it', async () => {
    const wake = new RunWake();
    const pause = wake.pause(250);
    expect(await settledWithin(pause, 249)).toBe(false);
    expect(await settledWithin(pause, 1)).toBe(true);
  });

  it('ends at once when the workers leave the run, and leaves no timer behind', async () => {
    const wake = new RunWake();
    const pause = wake.pause(250);
    wake.wake();
    expect(await settledWithin(pause, 0)).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a wake with no pause under way does not cut the next one short', async () => {
    const wake = new RunWake();
    wake.wake();
    expect(await settledWithin(wake.pause(250), 100)).toBe(false);
  });
});
