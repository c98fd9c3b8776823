import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import type { MappedRow } from '../../../src/interfaces.js';
import type { RunNotifier } from '../../../src/notify/notifier.js';
import { cancelRun } from '../../../src/queue/cancel-run.js';
import { enqueueOrAttach, enqueueRun } from '../../../src/queue/enqueue-run.js';
import { gate } from '../../support/gate.js';
import { countingSource, enqueueDeps, pollUntil, RUN_SPEC, upsert, useProducerRig } from './support/rig.js';

/**
 * A source imported again while an earlier run of it is unread: attached to that run while its
 * producer lives, started over once it is dead (killed, or Redis out of reach past its deadline),
 * even before the dead producer's mark has expired. Beats of 50 ms stand for the 10 s ones.
 */
describe('importing a source whose earlier run is not read to the end', () => {
  const rig = useProducerRig();
  const SOURCED = { ...RUN_SPEC, sourceId: 'feed-1' };
  const deps = () => enqueueDeps(rig, { producingBeatMs: 50 });

  it('ends the run of a dead producer, though its mark has not expired, and reads the source anew', async () => {
    // What a producer killed at row 400 leaves: its run claims the source, its mark is set once.
    const dead = await rig.runs.create(SOURCED);
    await rig.redis.set(rig.keys.activeRun(SOURCED.sellerRef, 'feed-1'), dead.id);
    await rig.redis.set(rig.keys.producing(dead.id), '7', 'PX', 60_000);

    const told: string[] = [];
    // Told as the run ends (finalise.ts), as its own process would have.
    const notifier = {
      notifyRun: async (event: string, run: { id: string }) => {
        told.push(`${event} ${run.id}`);
      },
    } as unknown as RunNotifier;

    const result = await enqueueRun({ ...deps(), notifier }, SOURCED, countingSource(30).rows());

    expect(result.kind).toBe('queued');
    expect(await rig.runs.get(dead.id)).toMatchObject({ state: 'done', aborted: true });
    // Its own process would have told its webhook, and status why: both now come from the re-run.
    expect((await rig.runs.get(dead.id))?.endedEarly).toBe(
      `its process stopped before the source was read to the end; run ${result.kind === 'queued' ? result.run.id : ''} reads it anew`,
    );
    expect(told).toEqual([`ended ${dead.id}`]);
    expect(await rig.redis.exists(rig.keys.producing(dead.id))).toBe(0);
    if (result.kind === 'queued')
      expect(await rig.runs.get(result.run.id)).toMatchObject({ produced: true, total: 30 });
  });

  it("watches every dead reader of the source at once, the claim's holder and a run killed as it waited", async () => {
    const hoursAgo = Date.now() - 3_600_000;
    // The claim's holder, killed as it read; and a run killed while it waited on that reader.
    const holder = await rig.runs.create(SOURCED, hoursAgo);
    await rig.redis.set(rig.keys.activeRun(SOURCED.sellerRef, 'feed-1'), holder.id);
    const waited = await rig.runs.create(SOURCED, hoursAgo);
    for (const dead of [holder, waited]) await rig.redis.set(rig.keys.producing(dead.id), '3', 'PX', 60_000);
    const gets = vi.spyOn(rig.redis, 'get');
    const dels = vi.spyOn(rig.redis, 'del');

    const result = await enqueueRun(deps(), SOURCED, countingSource(3).rows());

    expect(result.kind).toBe('queued');
    for (const dead of [holder, waited])
      expect(await rig.runs.get(dead.id)).toMatchObject({ state: 'done', aborted: true });
    // Each dead mark is known so only three beats on: the waited run's is watched from the start,
    // before the holder is found dead and ended (its mark deleted), not after it.
    const order = (spy: { mock: { calls: unknown[][]; invocationCallOrder: number[] } }, key: string) => {
      const at = spy.mock.calls.findIndex((call) => call.flat().includes(key));
      return at < 0 ? Number.POSITIVE_INFINITY : (spy.mock.invocationCallOrder[at] as number);
    };
    const holderEnded = order(dels, rig.keys.producing(holder.id));
    expect(holderEnded).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(order(gets, rig.keys.producing(waited.id))).toBeLessThan(holderEnded);
    gets.mockRestore();
    dels.mockRestore();
  });

  it("leaves the source's claim to the re-run that took over, when its own source then breaks", async () => {
    const claim = rig.keys.activeRun(SOURCED.sellerRef, 'feed-1');
    async function* breaking(): AsyncGenerator<MappedRow> {
      yield upsert(1);
      // Taken for dead meanwhile (its beat was late): a re-run ended it and claimed the source.
      await rig.redis.set(claim, 'the-re-run');
      throw new Error('the feed connection was reset at row 2');
    }

    await expect(enqueueRun(deps(), SOURCED, breaking())).rejects.toThrow('reset at row 2');

    expect(await rig.redis.get(claim)).toBe('the-re-run');
  });

  it('attaches to the run of a live producer, whose mark changes at each beat', async () => {
    const held = gate();
    let firstRun = '';
    async function* slow(): AsyncGenerator<MappedRow> {
      yield upsert(1);
      await held.promise;
      yield upsert(2);
    }
    const first = enqueueRun(deps(), SOURCED, slow(), {
      onRunCreated: (run) => {
        firstRun = run.id;
      },
    });
    await pollUntil('the first run exists', () => firstRun !== '');

    const second = await enqueueRun(deps(), SOURCED, countingSource(30).rows());

    expect(second).toEqual({ kind: 'already-queued', runId: firstRun });
    held.open();
    expect(await first).toMatchObject({ kind: 'queued', total: 2 });
  });

  describe("`run`'s enqueue, which waits for what it queues", () => {
    /** A producer of run `runId` as another process runs it: beats every 50 ms until stopped. */
    const beating = (runId: string) => {
      let beats = 0;
      const timer = setInterval(() => {
        // Kept a minute, as a real mark is kept six beats: a killed producer's stays after it.
        rig.redis.set(rig.keys.producing(runId), String(++beats), 'PX', 60_000).catch(() => undefined);
      }, 50);
      return () => clearInterval(timer);
    };
    const earlierRun = async () => {
      const earlier = await rig.runs.create(SOURCED);
      await rig.redis.set(rig.keys.activeRun(SOURCED.sellerRef, 'feed-1'), earlier.id);
      await rig.redis.set(rig.keys.producing(earlier.id), '0', 'PX', 60_000);
      return earlier;
    };

    it('attaches once the earlier run is read to the end', async () => {
      const earlier = await earlierRun();
      const stop = beating(earlier.id);
      let settled = false;
      const attached = enqueueOrAttach(deps(), SOURCED, countingSource(30).rows()).finally(() => {
        settled = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(settled).toBe(false);

      await rig.runs.markProduced(earlier.id, 400);
      stop();

      expect(await attached).toEqual({ kind: 'already-queued', runId: earlier.id });
    });

    it('attaches at once to an earlier run read to the end, and says nothing of another reader', async () => {
      const earlier = await earlierRun();
      await rig.runs.markProduced(earlier.id, 400);
      await rig.redis.del(rig.keys.producing(earlier.id));
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });

      const attached = await enqueueOrAttach({ ...deps(), logger }, SOURCED, countingSource(30).rows());

      expect(attached).toEqual({ kind: 'already-queued', runId: earlier.id });
      expect(lines.join('')).not.toContain('being read by another process');
    });

    it('says it waits for another reader while the earlier run is still being read', async () => {
      const earlier = await earlierRun();
      const stop = beating(earlier.id);
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
      const attached = enqueueOrAttach({ ...deps(), logger }, SOURCED, countingSource(30).rows());
      await pollUntil('the wait is said', () => lines.length > 0);

      await rig.runs.markProduced(earlier.id, 400);
      stop();

      expect(await attached).toEqual({ kind: 'already-queued', runId: earlier.id });
      expect(lines.join('')).toContain('this source is being read by another process');
    });

    it('reads the source itself when the earlier producer dies after it attached', async () => {
      const earlier = await earlierRun();
      const stop = beating(earlier.id);
      const source = countingSource(30);
      const attached = enqueueOrAttach(deps(), SOURCED, source.rows());
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(source.pulled).toBe(0);

      stop(); // killed: its mark is not renewed again

      const result = await attached;
      expect(result).toMatchObject({ kind: 'queued', total: 30 });
      expect(await rig.runs.get(earlier.id)).toMatchObject({ state: 'done', aborted: true });
    });

    it('lets one of two runs waiting on a dead producer read the source; the other attaches to it', async () => {
      const earlier = await earlierRun();
      const stop = beating(earlier.id);
      const sources = [countingSource(30), countingSource(30)];
      const waiting = sources.map((source) => enqueueOrAttach(deps(), SOURCED, source.rows()));
      await new Promise((resolve) => setTimeout(resolve, 200));

      stop();

      const results = await Promise.all(waiting);
      const queued = results.filter((result) => result.kind === 'queued');
      expect(queued).toHaveLength(1);
      const reader = queued[0]?.kind === 'queued' ? queued[0].run.id : '';
      expect(results.filter((result) => result.kind === 'already-queued')).toEqual([
        { kind: 'already-queued', runId: reader },
      ]);
      expect(sources.map((source) => source.pulled).sort()).toEqual([0, 30]);
    });
  });
});

describe('cancel of a run whose source is not read to the end', () => {
  const rig = useProducerRig();
  const cancelDeps = () => ({
    redis: rig.redis,
    keys: rig.keys,
    runs: rig.runs,
    prefix: rig.prefix,
    producingBeatMs: 50,
  });

  it('is refused while its reader lives, and allowed once the reader is dead though its mark stays', async () => {
    const run = await rig.runs.create(RUN_SPEC);
    let beats = 0;
    const beat = () => rig.redis.set(rig.keys.producing(run.id), String(++beats), 'PX', 60_000);
    await beat();
    const timer = setInterval(() => {
      beat().catch(() => undefined);
    }, 50);
    try {
      expect(await cancelRun(cancelDeps(), run.id)).toMatchObject({
        kind: 'refused',
        reason: expect.stringMatching(/is still reading its source/),
      });
    } finally {
      clearInterval(timer);
    }

    // Killed: the mark stays a minute, unchanged.
    expect(await rig.redis.exists(rig.keys.producing(run.id))).toBe(1);
    const told: number[] = [];
    expect((await cancelRun(cancelDeps(), run.id, (upToMs) => told.push(upToMs))).kind).not.toBe('refused');
    // The user is told the answer may take three beats.
    expect(told).toEqual([150]);
  });
});
