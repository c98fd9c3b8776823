import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { parseCsv } from '../support/catalog.js';
import { CliProcesses, runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { useStallingFeed } from '../support/stalling-feed.js';
import { until } from '../support/until.js';

// The reader's beat (10 s by default) as a seam: a mark left behind would hold the next run of the
// source for three beats, and a killed reader is known dead three beats on.
const BEAT = { CATALOG_SYNC_PRODUCING_BEAT_MS: '1000' };
/** The line a run says as it starts watching an earlier run's reader (enqueue-run.ts). */
const WATCH_LINE = /catalog-sync: run (\S+) left a reader's mark on this source: waiting up to (\d+) s/;

describe("a run's reader mark (run:<id>:producing), once its process stops reading", () => {
  const pipeline = usePipeline({ latencyMs: 30 });
  const stallingFeed = useStallingFeed();
  const processes = new CliProcesses();
  afterEach(async () => {
    await processes.stopAll();
  });

  const keys = () => new RedisKeys(pipeline.prefix);
  const markOf = (runId: string) => withRedis((redis) => redis.exists(keys().producing(runId)));
  const runIds = () => withRedis((redis) => redis.zrange(keys().runs, 0, -1));
  const statusOf = async (runId: string) =>
    JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as Record<string, unknown>;
  /** Resolves to the id of the run other than `earlier` once it reads rows of the source. */
  async function nextRunReading(earlier: string): Promise<string> {
    let next = '';
    await until('the next run reads the source', async () => {
      next = (await runIds()).find((id) => id !== earlier) ?? '';
      return next !== '' && ((await statusOf(next)).total as number) > 0;
    });
    return next;
  }

  it('`run` interrupted mid-read (SIGTERM): the mark goes with it, the run is said interrupted, and the next run starts at once', {
    timeout: 60_000,
  }, async () => {
    // The first answer stalls mid-read; the next sends the same rows and ends.
    const url = await stallingFeed({ stalls: 1 });
    const interrupted = processes.spawn(['run', url], { ...pipeline.env, ...BEAT });
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 5);

    interrupted.process.kill('SIGTERM');

    expect(await interrupted.exited).toEqual({ code: 143, signal: null });
    // It says what it wrote before the read stopped, and that a re-run sends the rest (df2bde9).
    expect(interrupted.stderr()).toMatch(
      /is ended; \d+ rows were written before it ended \(\d+ created, 0 updated\), the rest of the source was not sent\. Run it again/,
    );
    const runId = runIdOf(interrupted.stderr());
    expect(await markOf(runId)).toBe(0);
    // Nothing broke: the rows it never sent are said interrupted, not failed.
    const status = await statusOf(runId);
    expect(status).toMatchObject({ state: 'done', aborted: true, counts: { failed: 0 } });
    expect((status.counts as { skipped: number }).skipped).toBeGreaterThan(0);
    expect(status.stateText).toMatch(/^ended early: interrupted before the source was read to the end/);
    const report = await pipeline.cli(['report', runId]);
    expect(report.code, report.stderr).toBe(0);
    const unsent = parseCsv(report.stdout).filter((line) => line.action === 'skipped');
    expect(unsent.length).toBeGreaterThan(0);
    for (const line of unsent) {
      expect(line).toMatchObject({
        status: 'ok',
        error: 'not sent: the run was interrupted before its turn (run it again)',
      });
    }

    const again = processes.spawn(['run', url], { ...pipeline.env, ...BEAT });

    // Reading at once: no earlier reader's mark is watched first (that would say so: WATCH_LINE).
    await nextRunReading(runId);
    expect(again.stderr()).not.toMatch(WATCH_LINE);
  });

  it('`run` killed mid-read (SIGKILL): the next run says whose reader it waits for, how long at most, and why, then reads anew', {
    timeout: 60_000,
  }, async () => {
    const url = await stallingFeed({ stalls: 1 });
    const killed = processes.spawn(['run', url], { ...pipeline.env, ...BEAT });
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 5);
    const [runId = ''] = await runIds();

    killed.process.kill('SIGKILL');
    await killed.exited;
    // Its last mark, as a killed reader leaves it (six beats): set here, so that a slow machine's
    // delay before the next run cannot let it expire first.
    await withRedis((redis) => redis.set(keys().producing(runId), '7', 'PX', 60_000));

    const again = processes.spawn(['run', url], { ...pipeline.env, ...BEAT });

    // Said as the wait starts: whose reader, three beats of 1 s at most, and why.
    const [, waitedFor, upTo] = await again.waitForStderr(WATCH_LINE);
    expect([waitedFor, upTo]).toEqual([runId, '3']);
    expect(again.stderr()).toContain(
      'to tell whether its process still reads it (a live one renews its mark every 1 s; a killed process leaves its mark up to 6 s)',
    );
    await nextRunReading(runId);
    expect((await statusOf(runId)).endingEarly ?? (await statusOf(runId)).endedEarly).toMatch(
      /its process stopped before the source was read to the end/,
    );
    // Once, though the claim and the watch of the source's earlier runs both watched that reader.
    expect(again.stderr().match(new RegExp(WATCH_LINE.source, 'g'))).toHaveLength(1);
  });
});
