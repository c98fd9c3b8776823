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

  it('says when a look is due without changing anything, and gives the look the time to the next one', async () => {
    let clock = 0;
    const looks: Array<{ run: string; nextMs: number }> = [];
    const watch = new LostRowsWatch(
      100,
      async (run, nextMs) => {
        looks.push({ run: `${run.settled}/${run.total}`, nextMs });
      },
      () => clock,
      300,
    );
    const idle = { settled: 5, total: 10 };
    expect(watch.due(idle)).toBe(false);
    await watch.observe(idle);
    clock = 99;
    expect(watch.due(idle)).toBe(false);
    clock = 100;
    expect(watch.due(idle)).toBe(true);
    expect(watch.due({ settled: 6, total: 10 })).toBe(false);
    // Asking twice looks at nothing; a caller that does not observe (a paused seller) keeps it due.
    expect(watch.due(idle)).toBe(true);
    expect(looks).toEqual([]);
    clock = 5000;
    await watch.observe(idle);
    expect(looks).toEqual([{ run: '5/10', nextMs: 200 }]);
    expect(watch.due(idle)).toBe(false);
    clock = 5200;
    await watch.observe(idle);
    clock = 5500;
    await watch.observe(idle);
    expect(looks.map((look) => look.nextMs)).toEqual([200, 300, 300]);
  });

  it('says the rows were never sent, why, and what sends them', () => {
    expect(lostChunkReason(false)).toBe(
      'not sent: its queued chunk was lost from Redis (a failover or a flush dropped its job); a re-run of the source sends it',
    );
    expect(lostChunkReason(true)).toMatch(/^not planned: .*a re-run of the source plans it$/);
  });
});
