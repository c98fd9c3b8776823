import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { ChunkAttempts } from '../../../src/queue/chunk-attempts.js';
import type { Repeat } from '../../../src/redis/renew-while.js';

/** A job as BullMQ hands it out: its attempt's number, and its lock renewals recorded. */
function handedOut(id: string, attemptsStarted: number, renewals: string[] = []): Job {
  return {
    id,
    queueName: 'sync-seller',
    attemptsStarted,
    extendLock: async (token: string) => {
      renewals.push(token);
      return 1;
    },
  } as unknown as Job;
}

/** A promise and the call that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Ticks only when the test calls them: no wall clock. */
function manualRepeat(): { repeat: Repeat; tick: () => void } {
  const ticks = new Set<() => void>();
  return {
    repeat: (tick) => {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
    tick: () => {
      for (const tick of ticks) tick();
    },
  };
}

describe('the chunk attempts of one process', () => {
  it('runs a chunk handed out again while its earlier attempt goes on only after that attempt ends', async () => {
    const attempts = new ChunkAttempts(2000);
    const steps: string[] = [];
    const first = gate();
    const earlier = attempts.inTurn(handedOut('run-1', 1), 'token-1', async () => {
      steps.push('first begins');
      await first.opened;
      steps.push('first ends');
    });
    const again = attempts.inTurn(handedOut('run-1', 2), 'token-2', async (followsOwn) => {
      steps.push(`second begins, following its own: ${followsOwn}`);
    });
    await Promise.resolve();
    expect(steps).toEqual(['first begins']);

    first.open();
    await Promise.all([earlier, again]);
    expect(steps).toEqual(['first begins', 'first ends', 'second begins, following its own: true']);
  });

  it('runs two chunks at once, and the same chunk of two queues', async () => {
    const attempts = new ChunkAttempts(2000);
    const first = gate();
    const begun: string[] = [];
    const slow = attempts.inTurn(handedOut('run-1', 1), 'a', async () => {
      begun.push('run-1');
      await first.opened;
    });
    await attempts.inTurn(handedOut('run-2', 1), 'b', async () => {
      begun.push('run-2');
    });
    const otherQueue = { ...handedOut('run-1', 1), queueName: 'sync-other' } as Job;
    await attempts.inTurn(otherQueue, 'c', async () => {
      begun.push('run-1 of another queue');
    });
    expect(begun).toEqual(['run-1', 'run-2', 'run-1 of another queue']);
    first.open();
    await slow;
  });

  it('keeps the lock of an attempt that waited: at once, then every half lock until it ends', async () => {
    const { repeat, tick } = manualRepeat();
    const attempts = new ChunkAttempts(2000, repeat);
    const renewals: string[] = [];
    const first = gate();
    const second = gate();
    const earlier = attempts.inTurn(handedOut('run-1', 1, renewals), 'token-1', () => first.opened);
    const again = attempts.inTurn(handedOut('run-1', 2, renewals), 'token-2', () => second.opened);
    first.open();
    await earlier;
    await new Promise((resolve) => setImmediate(resolve));
    expect(renewals).toEqual(['token-2']);
    tick();
    expect(renewals).toEqual(['token-2', 'token-2']);

    second.open();
    await again;
    tick();
    expect(renewals).toEqual(['token-2', 'token-2']);
  });

  it('says an attempt follows its own when the previous one ended here, not when another came between', async () => {
    const attempts = new ChunkAttempts(2000);
    const follows: boolean[] = [];
    const note = async (followsOwn: boolean) => {
      follows.push(followsOwn);
    };
    await attempts.inTurn(handedOut('run-1', 1), 't1', note);
    // Its lock ran out after it ended (its completion refused): the stall check hands it out again.
    await attempts.inTurn(handedOut('run-1', 2), 't2', note);
    // Attempt 3 was another process's (killed): its requests since its last settle are not counted.
    await attempts.inTurn(handedOut('run-1', 4), 't4', note);
    // A chunk this process never had.
    await attempts.inTurn(handedOut('run-7', 2), 't5', note);

    expect(follows).toEqual([false, true, false, false]);
  });
});
