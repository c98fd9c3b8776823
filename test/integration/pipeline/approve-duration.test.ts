import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { formatDuration } from '../../../src/runs/summary.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { renamedHeld } from '../support/held-run.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { RedisStall } from '../support/redis-stall.js';

const HOUR = 3_600_000;
/** The held run's own time, by construction: far longer than any approval in a test takes. */
const HELD_AFTER = 2 * HOUR + 5 * 60_000;

/**
 * The times `approve` and `status` tell of a held run approved later (the morning after): the
 * approval's summary says how long the approval took, not how long the held run took before it
 * stopped, nor the night in between; the record keeps each instant (created, held, approved, finished).
 * No wall-clock duration is asserted: the hold is moved 10 h into the past in Redis, with a held run
 * of 2 h 5 min, so that the three durations differ by construction.
 */
describe('approve: the duration it says is the approval’s', () => {
  const pipeline = usePipeline();

  /** Moves the held run's instants 10 h back: created then, held 2 h 5 min later. */
  async function heldLastNight(runId: string): Promise<{ createdAt: number; heldAt: number }> {
    const createdAt = Date.now() - 10 * HOUR;
    const heldAt = createdAt + HELD_AFTER;
    await withRedis((redis) =>
      redis.hset(new RedisKeys(pipeline.prefix).run(runId), {
        createdAt,
        finishedAt: heldAt,
        // Where the hold's own instant is kept (absent from records before it was): moved with it.
        heldAt,
      }),
    );
    return { createdAt, heldAt };
  }

  async function statusOf(runId: string) {
    return JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as Record<string, unknown>;
  }

  async function approveAndCheck(runId: string) {
    const { createdAt, heldAt } = await heldLastNight(runId);

    const approved = await pipeline.cli(['approve', runId]);

    expect(approved.code).toBe(0);
    const status = await statusOf(runId);
    const approvedAt = status.approvedAt as number;
    const finishedAt = status.finishedAt as number;
    // Never the held run's own time, nor the span from its start through the night …
    expect(approved.stdout).not.toContain(`done in ${formatDuration(HELD_AFTER)}`);
    expect(approved.stdout).not.toContain(`done in ${formatDuration(finishedAt - createdAt)}`);
    // … but the approval's own (its start and end as the record has them), the hold's beside it.
    const headline = approved.stdout.split('\n').find((line) => line.startsWith(`run ${runId}: `));
    expect(headline).toBe(
      `run ${runId}: done in ${formatDuration(finishedAt - approvedAt)} by approve (the run was held after ${formatDuration(HELD_AFTER)})`,
    );
    // The timeline is true: held, approved later, finished when its approval did.
    expect(status).toMatchObject({ state: 'done', createdAt, heldAt });
    expect(approvedAt).toBeGreaterThan(heldAt);
    expect(finishedAt).toBeGreaterThanOrEqual(approvedAt);
  }

  it('held rows (--max-updates)', async () => {
    await approveAndCheck(await renamedHeld(pipeline));
  });

  it('held deactivations (--missing over --max-missing)', async () => {
    const feed = catalogRows(10);
    expect((await pipeline.cli(['run', await pipeline.csv('first.csv', feed)])).code).toBe(0);
    const held = await pipeline.cli([
      'run',
      await pipeline.csv('kept.csv', feed.slice(0, 6)),
      '--missing',
      'quantity=0',
    ]);
    expect(held.code).toBe(5);

    await approveAndCheck(runIdOf(held.stdout));
  });

  it('approve --rows that leaves rows held: the run is held again, its record says when', async () => {
    const runId = await renamedHeld(pipeline);
    const { heldAt } = await heldLastNight(runId);

    expect((await pipeline.cli(['approve', runId, '--rows', '1,2'])).code).toBe(5);

    const status = await statusOf(runId);
    expect(status).toMatchObject({ state: 'held', heldAt });
    // Its last round ended after it was approved, not at the first hold.
    expect(status.finishedAt as number).toBeGreaterThanOrEqual(status.approvedAt as number);
    expect(status.approvedAt as number).toBeGreaterThan(heldAt);
  });

  describe('an approval an earlier approve began and was killed before it had queued its writes', () => {
    let stall: RedisStall | null = null;
    afterEach(async () => {
      await stall?.close();
      stall = null;
    });

    /** `23:14 UTC`, dated when on another day (UTC) than `reference`, as the summary says it. */
    function clock(at: number, reference: number): string {
      const iso = new Date(at).toISOString();
      const day =
        iso.slice(0, 10) === new Date(reference).toISOString().slice(0, 10) ? '' : `${iso.slice(0, 10)} `;
      return `${day}${iso.slice(11, 16)} UTC`;
    }

    it('is timed from the approve that finished it, which says when the earlier one began', {
      timeout: 30_000,
    }, async () => {
      const runId = await renamedHeld(pipeline);
      const { heldAt } = await heldLastNight(runId);
      // Killed at its last queueing step (noting the round queued: the second command naming the
      // field, after START_SCRIPT's): the run is left running, its approval unqueued.
      stall = await RedisStall.start('approvalQueued', 2);
      const killed = pipeline.spawn(['approve', runId], { REDIS_URL: stall.url });
      await stall.stalled;
      killed.process.kill('SIGKILL');
      await killed.exited;
      // The killed approve began at night, an hour after the hold; it is finished in the morning.
      const startedAt = heldAt + HOUR;
      await withRedis((redis) =>
        redis.hset(new RedisKeys(pipeline.prefix).run(runId), 'approvedAt', startedAt),
      );

      const finished = await pipeline.cli(['approve', runId]);

      expect(finished.stderr).toContain(
        `an earlier approve of run ${runId} stopped before it had queued its writes: finishing it`,
      );
      expect(finished.code).toBe(0);
      const status = await statusOf(runId);
      const finishedAt = status.finishedAt as number;
      const resumedAt = status.approvalResumedAt as number;
      expect(status).toMatchObject({ state: 'done', heldAt, approvedAt: startedAt });
      expect(resumedAt).toBeGreaterThan(startedAt);
      expect(finishedAt).toBeGreaterThanOrEqual(resumedAt);
      const headline = finished.stdout.split('\n').find((line) => line.startsWith(`run ${runId}: `));
      expect(headline).toBe(
        `run ${runId}: done in ${formatDuration(finishedAt - resumedAt)} by approve ` +
          `(started by an earlier approve at ${clock(startedAt, finishedAt)}; the run was held after ${formatDuration(HELD_AFTER)})`,
      );
    });
  });
});
