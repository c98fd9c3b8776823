import { describe, expect, it } from 'vitest';
import { isServed, keepMarkedServed, markServed, releaseServed } from '../../../src/queue/served-marks.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

const REF = '0123456789abcdef';

/**
 * A seller's served mark says that some live process holds its key (and so probes its API when
 * due). It outlived a `run` that exited by 30 s, and `status` promised a probe no one would send:
 * each process takes its own mark back as it ends, and leaves the others'.
 */
describe("a seller's served mark", () => {
  const db = usePrefixedRedis();

  it('goes when the one process holding it takes it back', async () => {
    const keys = new RedisKeys(db.prefix);
    await markServed(db.redis, keys, [REF], Date.now(), 'runA');
    expect(await isServed(db.redis, keys, REF)).toBe(true);

    await releaseServed(db.redis, keys, [REF], Date.now(), 'runA');

    expect(await isServed(db.redis, keys, REF)).toBe(false);
  });

  it("stays while another process holds it, and runs out with that process's last renewal", async () => {
    const keys = new RedisKeys(db.prefix);
    const now = Date.now();
    await markServed(db.redis, keys, [REF], now, 'worker1');
    await markServed(db.redis, keys, [REF], now + 5, 'runA');

    await releaseServed(db.redis, keys, [REF], now + 10, 'runA');

    expect(await isServed(db.redis, keys, REF)).toBe(true);
    // The worker's renewal, 30 s from its own: not the released run's, 5 ms later.
    const left = await db.redis.pttl(keys.servedBy(REF));
    expect(left).toBeGreaterThan(25_000);
    expect(left).toBeLessThanOrEqual(30_000 - 10);
    await releaseServed(db.redis, keys, [REF], now + 20, 'worker1');
    expect(await isServed(db.redis, keys, REF)).toBe(false);
  });

  it("keeps an earlier version's mark (a time alone) until it runs out", async () => {
    const keys = new RedisKeys(db.prefix);
    await db.redis.set(keys.servedBy(REF), String(Date.now()), 'PX', 20_000);
    await markServed(db.redis, keys, [REF], Date.now(), 'runA');

    await releaseServed(db.redis, keys, [REF], Date.now(), 'runA');

    expect(await isServed(db.redis, keys, REF)).toBe(true);
    expect(await db.redis.pttl(keys.servedBy(REF))).toBeLessThanOrEqual(20_000);
  });

  it('kept by a renewing process, is taken back when it stops', async () => {
    const keys = new RedisKeys(db.prefix);
    const stop = keepMarkedServed(db.redis, keys, () => [REF]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await isServed(db.redis, keys, REF)).toBe(true);

    await stop();

    expect(await isServed(db.redis, keys, REF)).toBe(false);
  });
});
