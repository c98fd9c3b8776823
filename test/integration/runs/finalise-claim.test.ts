import { describe, expect, it } from 'vitest';
import { claimFinalisationLease } from '../../../src/runs/finalise-claim.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

/** The claim to end a run, on a real Redis, with a clock of the test's own (no real waits). */
describe('claimFinalisationLease', () => {
  const shared = usePrefixedRedis();
  const runKey = () => `${shared.prefix}:run:r1`;
  /** The test's clock; its waits move it on and are kept in `sleeps`. */
  const clock = () => {
    const time = { now: 1_000_000 };
    return { time, now: () => time.now, sleeps: [] as number[] };
  };

  it('goes to one caller; another gives up after its wait while the lease is renewed, and none claims once done', async () => {
    const c = clock();
    const first = await claimFinalisationLease(shared.redis, runKey(), { now: c.now, leaseMs: 20_000 });
    expect(first).not.toBeNull();

    const second = await claimFinalisationLease(shared.redis, runKey(), {
      now: c.now,
      leaseMs: 20_000,
      waitMs: 3_000,
      sleep: async (ms) => {
        c.sleeps.push(ms);
        c.time.now += ms;
        // The holder lives: it renews its lease while the other waits.
        expect(await first?.renew()).toBe(true);
      },
    });
    expect(second).toBeNull();
    // Short waits first (the other of two chunks that ended together is done in milliseconds).
    expect(c.sleeps.slice(0, 3)).toEqual([10, 20, 40]);
    expect(c.sleeps.every((ms) => ms <= 500)).toBe(true);

    await first?.done();
    expect(await shared.redis.hget(runKey(), 'finalising')).toBe('done');
    expect(await claimFinalisationLease(shared.redis, runKey(), { now: c.now, waitMs: 0 })).toBeNull();
  });

  it('is taken over once a holder that stopped renewing has let its lease run out; the old holder then loses it', async () => {
    const c = clock();
    const stopped = await claimFinalisationLease(shared.redis, runKey(), { now: c.now, leaseMs: 20_000 });
    c.time.now += 5_000;

    // Waits the lease out (the clock moves with each wait), then holds it.
    const next = await claimFinalisationLease(shared.redis, runKey(), {
      now: c.now,
      leaseMs: 20_000,
      sleep: async (ms) => {
        c.time.now += ms;
      },
    });

    expect(next).not.toBeNull();
    expect(c.time.now).toBeGreaterThanOrEqual(1_000_000 + 20_000);
    expect(await stopped?.renew()).toBe(false);
    await stopped?.done();
    expect(await shared.redis.hget(runKey(), 'finalising')).toMatch(/^lease:\d+:/);
  });

  it('a claim made by a version without leases counts as done', async () => {
    await shared.redis.hset(runKey(), 'finalising', 1);
    expect(await claimFinalisationLease(shared.redis, runKey(), { waitMs: 0 })).toBeNull();
  });
});
