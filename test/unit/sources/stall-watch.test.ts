import { describe, expect, it } from 'vitest';
import { type StallTimer, StallWatch } from '../../../src/sources/stall-watch.js';

/** A timer the test fires by hand: `fire()` runs the checks set so far, as if their time had come. */
function manualTimer() {
  let pending: Array<{ check: () => void; cancelled: boolean }> = [];
  const delays: number[] = [];
  const timer: StallTimer = (check, ms) => {
    delays.push(ms);
    const entry = { check, cancelled: false };
    pending.push(entry);
    return () => {
      entry.cancelled = true;
    };
  };
  const fire = () => {
    const due = pending.filter((entry) => !entry.cancelled);
    pending = [];
    for (const entry of due) entry.check();
    return due.length;
  };
  return { timer, fire, delays };
}

describe('StallWatch, on a clock of its own', () => {
  it('counts the bytes of the last window, and only while waiting', () => {
    let now = 0;
    let stalled = 0;
    const { timer, fire, delays } = manualTimer();
    const watch = new StallWatch(
      1000,
      () => stalled++,
      () => now,
      timer,
    );
    // 600 bytes, then 600 more 500 ms later: 1200 in the window.
    watch.startWaiting();
    now = 100;
    watch.received(600);
    watch.stopWaiting();
    // Busy for 10 s: not waiting, no time passes for the rule.
    now = 10_100;
    watch.startWaiting();
    now = 10_600;
    watch.received(600);
    watch.stopWaiting();
    expect(stalled).toBe(0);
    // Waiting again (at 600 ms of waiting): the first 600 bytes leave the window at 1100 ms.
    watch.startWaiting();
    expect(delays.at(-1), 'the check is set for when they leave').toBe(500);
    now = 11_050; // 1050 ms of waiting: 1200 bytes still in the window
    expect(fire(), 'checks run').toBe(1);
    expect(stalled).toBe(0);
    now = 11_200; // 1200 ms of waiting: 600 bytes in the window
    expect(fire(), 'checks run').toBe(1);
    expect(stalled).toBe(1);
    watch.dispose();
  });
});
