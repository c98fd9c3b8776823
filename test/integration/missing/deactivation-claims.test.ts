import { describe, expect, it } from 'vitest';
import { DeactivationClaims } from '../../../src/missing/deactivation-claims.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

/** Which `deactivate` job sends a product's PUT, on a real Redis, with a clock of the test's own. */
describe('DeactivationClaims', () => {
  const shared = usePrefixedRedis();
  const RUN = 'r1';
  const setUp = async () => {
    const keys = new RedisKeys(shared.prefix);
    await shared.redis.hset(keys.deactivations(RUN), { '11': 'SKU-11', '12': 'SKU-12', '13': 'SKU-13' });
    const time = { now: 1_000_000 };
    const claims = new DeactivationClaims(shared.redis, keys, 30_000, () => time.now);
    return { keys, time, claims };
  };

  it('gives each due product to one job; the same job takes its own back at once; a settled one to none', async () => {
    const { keys, claims } = await setUp();
    expect(await claims.claim(RUN, 'run-deactivate0-1', ['11', '12'])).toEqual(['ours', 'ours']);
    // A job queued again with other numbering holds some of the same products.
    expect(await claims.claim(RUN, 'run-deactivate0-0', ['12', '13'])).toEqual(['held', 'ours']);
    // The first job handed out again (its worker killed, a pause): BullMQ keeps its id.
    expect(await claims.claim(RUN, 'run-deactivate0-1', ['11', '12'])).toEqual(['ours', 'ours']);
    // Settled (ADD_MISSING removes it from the due ones): no one sends it again.
    await shared.redis.hdel(keys.deactivations(RUN), '11');
    expect(await claims.claim(RUN, 'run-deactivate0-0', ['11'])).toEqual(['settled']);
    expect(await claims.claim(RUN, 'run-deactivate0-1', ['11'])).toEqual(['settled']);
    // No longer than the run's other keys, ended or not.
    expect(await shared.redis.ttl(keys.deactivationClaims(RUN))).toBeGreaterThan(6 * 24 * 3600);
  });

  it('a claim its holder stopped renewing is taken over once it ran out, not before', async () => {
    const { time, claims } = await setUp();
    await claims.claim(RUN, 'stopped-job', ['11']);
    time.now += 29_999;
    expect(await claims.claim(RUN, 'other-job', ['11'])).toEqual(['held']);
    time.now += 2;
    expect(await claims.claim(RUN, 'other-job', ['11'])).toEqual(['ours']);
    expect(await claims.claim(RUN, 'stopped-job', ['11'])).toEqual(['held']);
  });

  it('whileHeld hands the work what each product is and renews the claims while the work runs', async () => {
    const { time, claims: others } = await setUp();
    await others.claim(RUN, 'other-job', ['13']);
    // The test's "every": a renewal when the test says, not after wall-clock milliseconds.
    const ticks: (() => void)[] = [];
    const repeat = (tick: () => void) => {
      ticks.push(tick);
      return () => ticks.splice(ticks.indexOf(tick), 1);
    };
    const claims = new DeactivationClaims(
      shared.redis,
      new RedisKeys(shared.prefix),
      30_000,
      () => time.now,
      repeat,
    );
    const seen = await claims.whileHeld(RUN, 'slow-job', ['11', '13'], async (held) => {
      // Three times the claim's 30 s on the test's clock, renewed every 20 s: never taken over.
      for (let i = 0; i < 4; i++) {
        time.now += 20_000;
        for (const tick of ticks) tick();
        await shared.redis.ping(); // the renewal, sent on the same connection, is answered first
      }
      expect(await claims.claim(RUN, 'third-job', ['11'])).toEqual(['held']);
      return held;
    });
    expect(seen).toEqual(['ours', 'held']);
    expect(ticks).toEqual([]);
    // Not renewed once the work ended: taken over after its time.
    time.now += 30_001;
    expect(await claims.claim(RUN, 'third-job', ['11'])).toEqual(['ours']);
  });
});
