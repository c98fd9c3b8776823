import { describe, expect, it } from 'vitest';
import { StallWatch } from '../../../src/sources/stall-watch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('StallWatch, on a clock of its own', () => {
  it('counts the bytes of the last window, and only while waiting', async () => {
    let now = 0;
    let stalled = 0;
    const watch = new StallWatch(
      1000,
      () => stalled++,
      () => now,
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
    now = 11_050; // 1050 ms of waiting: 1200 bytes still in the window
    await sleep(600);
    expect(stalled).toBe(0);
    now = 11_200; // 1200 ms of waiting: 600 bytes in the window
    await sleep(200);
    expect(stalled).toBe(1);
    watch.dispose();
  });
});
