import { describe, expect, it } from 'vitest';
import { lostChunkReason } from '../../../src/queue/lost-chunks.js';
import { LostRowsWatch } from '../../../src/queue/lost-rows-watch.js';

describe('when a run is looked at for rows that nothing holds', () => {
  function watched(idleMs: number, maxMs: number) {
    let clock = 0;
    const looks: number[] = [];
    const watch = new LostRowsWatch(
      idleMs,
      async () => {
        looks.push(clock);
      },
      () => clock,
      maxMs,
    );
    return {
      looks,
      at: async (ms: number, run: { settled: number; total: number }) => {
        clock = ms;
        await watch.observe(run);
      },
    };
  }

  it('never while the run moves; once it has been idle for idleMs', async () => {
    const { looks, at } = watched(100, 1000);
    for (let ms = 0; ms <= 500; ms += 50) await at(ms, { settled: ms, total: 600 });
    expect(looks).toEqual([]);
    await at(550, { settled: 500, total: 600 });
    await at(599, { settled: 500, total: 600 });
    expect(looks).toEqual([]);
    await at(600, { settled: 500, total: 600 });
    expect(looks).toEqual([600]);
  });

  it('again after twice as long each time it stays idle, up to the most; from the start once it moves', async () => {
    const { looks, at } = watched(100, 300);
    const idle = { settled: 5, total: 10 };
    for (let ms = 0; ms <= 1300; ms += 10) await at(ms, idle);
    expect(looks).toEqual([100, 300, 600, 900, 1200]);
    // A row counted is a move too: the next look comes idleMs after it.
    await at(1310, { settled: 5, total: 11 });
    await at(1400, { settled: 5, total: 11 });
    await at(1410, { settled: 5, total: 11 });
    expect(looks.slice(5)).toEqual([1410]);
  });

  it('says the rows were never sent, why, and what sends them', () => {
    expect(lostChunkReason(false)).toBe(
      'not sent: its queued chunk was lost from Redis (a failover or a flush dropped its job); a re-run of the source sends it',
    );
    expect(lostChunkReason(true)).toMatch(/^not planned: .*a re-run of the source plans it$/);
  });
});
