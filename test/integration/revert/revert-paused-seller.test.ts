import { describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { changingRun } from './support.js';

/**
 * `revert` of a seller paused on its daily limit: a later run of the seller queued is what stops it
 * (exit 2, that run named), not the pause; and `--dry-run`, which reads, spends no request the API
 * would answer 429.
 */
describe('`revert` while the seller is paused on its daily limit', () => {
  const pipeline = usePipeline();

  /** The seller paused for an hour, as a 429 leaves it; its ref. */
  async function pauseSeller(runId: string): Promise<string> {
    const { sellerRef } = JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout);
    const until = Date.now() + 3_600_000;
    await withRedis((redis) =>
      redis.set(new RedisKeys(pipeline.prefix).pausedUntil(sellerRef), String(until), 'PX', 3_600_000),
    );
    return sellerRef;
  }

  it('names the queued run in the way (exit 2), not the pause', async () => {
    const { runId } = await changingRun(pipeline);
    const later = await pipeline.cli([
      'import',
      await pipeline.csv('later.csv', [{ sku: 'LAMP', name: 'Desk lamp, brass', price: '30' }]),
    ]);
    expect(later.code, later.stderr).toBe(0);
    const laterId = runIdOf(later.stdout);
    await pauseSeller(runId);
    pipeline.sandbox.resetStats();

    const refused = await pipeline.cli(['revert', runId]);

    expect(refused.stderr).toMatch(new RegExp(`run ${laterId} of the same seller is queued`));
    expect(refused.code).toBe(2);
    expect(pipeline.sandbox.stats().total).toBe(0);
  });

  it('--dry-run sends no request: exit 4, one line saying until when', async () => {
    const { runId } = await changingRun(pipeline);
    await pauseSeller(runId);
    pipeline.sandbox.resetStats();

    const dry = await pipeline.cli(['revert', runId, '--dry-run']);

    expect(pipeline.sandbox.stats().total).toBe(0);
    expect(dry.code).toBe(4);
    expect(dry.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(
          `^catalog-sync: the seller is paused on its daily limit: nothing was read; re-run \`catalog-sync revert ${runId} --dry-run\` after the reset \\(\\S+Z\\)$`,
        ),
      ),
    ]);
  });
});
