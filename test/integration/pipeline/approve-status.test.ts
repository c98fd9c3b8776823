import { afterEach, describe, expect, it } from 'vitest';
import { APPROVAL_STOPPED_AFTER_MS } from '../../../src/defaults.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { pricesDoubledHeld } from '../support/held-run.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { RedisStall } from '../support/redis-stall.js';

/**
 * `status` of a run an `approve` marked approved before it queued its writes: it never says they
 * are queued. The approve is caught at its first queueing write (a chunk's job, held back by the
 * relay before it reaches Redis), then killed there (SIGKILL: no line, no clean-up).
 */
describe('status of an approval whose writes are not queued', () => {
  const pipeline = usePipeline();
  let stall: RedisStall | null = null;
  afterEach(async () => {
    await stall?.close();
    stall = null;
  });

  async function statusText(runId: string): Promise<{ head: string; rows: string; outcome: string }> {
    const lines = (await pipeline.cli(['status', runId])).stdout.split('\n');
    const line = (start: string) => lines.find((text) => text.startsWith(start)) ?? '';
    return { head: line(`run ${runId}: `), rows: line('  rows '), outcome: line('  outcome ') };
  }

  it('says it is being queued, then that the approve stopped and how to finish it', {
    timeout: 30_000,
  }, async () => {
    const runId = await pricesDoubledHeld(pipeline);
    // The first chunk job the approve adds (its data names the phase): nothing of it is in Redis yet.
    stall = await RedisStall.start('"phase":"approve"');
    const approve = pipeline.spawn(['approve', runId], { REDIS_URL: stall.url });
    await stall.stalled;

    // The approve is alive, its queueing write held back.
    const queueing = await statusText(runId);
    expect(queueing.head).toMatch(
      new RegExp(
        `^run ${runId}: running: an approve is queueing its writes \\(since \\S+Z\\); if it was stopped, ` +
          `\`catalog-sync approve ${runId}\` finishes it from \\S+Z$`,
      ),
    );
    expect(queueing.rows).toBe(
      '  rows      0 settled of 20, 20 approved, being queued by an approve under way (not sent yet)',
    );
    expect(queueing.outcome).toContain('20 approved and not queued yet');
    expect(queueing.outcome).not.toContain('and queued');

    approve.process.kill('SIGKILL');
    await approve.exited;
    stall.release();
    // Killed: taken for stopped once it has been silent too long for an approve still queueing (its
    // start and its last heartbeat, if it beat before the kill, moved back rather than waited out).
    const silentSince = Date.now() - APPROVAL_STOPPED_AFTER_MS - 1_000;
    await withRedis((redis) =>
      redis.hset(
        new RedisKeys(pipeline.prefix).run(runId),
        'approvedAt',
        silentSince,
        'approvalAliveAt',
        silentSince,
      ),
    );

    const stopped = await statusText(runId);
    expect(stopped.head).toBe(
      `run ${runId}: running: an approve stopped before it had queued its writes; \`catalog-sync approve ${runId}\` finishes it`,
    );
    expect(stopped.rows).toBe(
      `  rows      0 settled of 20, 20 approved and not queued: the approve stopped before it had queued them (\`catalog-sync approve ${runId}\` finishes it)`,
    );
    expect(stopped.outcome).not.toContain('and queued');
    expect(pipeline.sandbox.stats().byRoute['PUT /products'] ?? 0).toBe(0);

    const finished = await pipeline.cli(['approve', runId]);
    expect(finished.stderr).toContain(
      `an earlier approve of run ${runId} stopped before it had queued its writes: finishing it`,
    );
    expect(finished.code).toBe(0);
    expect((await statusText(runId)).head).toBe(`run ${runId}: done`);
  });
});
