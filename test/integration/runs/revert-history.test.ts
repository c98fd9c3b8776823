import { describe, expect, it } from 'vitest';
import { REVERTS_KEPT } from '../../../src/defaults.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { recordRevert, revertsOf } from '../../../src/runs/revert-history.js';
import { usePrefixedRedis } from '../support/redis-prefix.js';

describe("a run's revert history in its hash", () => {
  const redis = usePrefixedRedis();

  it('keeps each revert in order, the last few only, and counts those no longer kept', async () => {
    const key = new RedisKeys(redis.prefix).run('20260301T020000-abc123');
    for (let n = 1; n <= REVERTS_KEPT + 2; n++)
      await recordRevert(redis.redis, key, 1000 * n, { reverted: n });

    const { reverts, dropped } = revertsOf(await redis.redis.hgetall(key));

    expect(reverts.map((revert) => revert.counts.reverted)).toEqual(
      Array.from({ length: REVERTS_KEPT }, (_, i) => i + 3),
    );
    expect(reverts.map((revert) => revert.at)).toEqual(reverts.map((_, i) => 1000 * (i + 3)));
    expect(dropped).toBe(2);
    expect(await redis.redis.hlen(key)).toBe(REVERTS_KEPT + 1);
  });

  it('lists the revert a record kept before the history first, then the later ones', async () => {
    const key = new RedisKeys(redis.prefix).run('20260301T020000-def456');
    await redis.redis.hset(key, { revertedAt: 500, revertCounts: JSON.stringify({ reverted: 4 }) });
    await recordRevert(redis.redis, key, 900, { reverted: 0, alreadyBack: 4 });

    expect(revertsOf(await redis.redis.hgetall(key))).toEqual({
      reverts: [
        { at: 500, counts: { reverted: 4 } },
        { at: 900, counts: { alreadyBack: 4, reverted: 0 } },
      ],
      dropped: 0,
    });
  });

  it('leaves out what does not read as a revert, rather than failing', () => {
    expect(
      revertsOf({ reverts: '3', 'revert:1': 'not json', 'revert:2': '{"at":"x"}', 'revert:3': '{"at":7}' }),
    ).toEqual({ reverts: [{ at: 7, counts: {} }], dropped: 2 });
  });
});
