import { afterEach, describe, expect, it } from 'vitest';
import type { RunView } from '../../../src/dashboard/views.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { useDashboards } from '../dashboard/support.js';
import { CliProcesses } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { useStallingFeed } from '../support/stalling-feed.js';
import { until } from '../support/until.js';

/**
 * A `run` killed (kill -9) while it reads its source leaves its run `running` with the rest of the
 * source unread: nothing would ever end it. Once the reader's mark has expired, `status` says so and
 * what to do, instead of `running` for ever.
 */
describe('status of a run whose reader was killed half way through its source', () => {
  const pipeline = usePipeline({ latencyMs: 5 });
  const processes = new CliProcesses();
  const openDashboard = useDashboards();
  const stallingFeed = useStallingFeed();
  afterEach(async () => {
    await processes.stopAll();
  });

  it('says the source was left unread and how to end the run, in text, JSON, --list and the dashboard', {
    timeout: 60_000,
  }, async () => {
    // A feed that sends more than the sniffed 64 KiB, then stalls: the run is mid-read.
    const url = await stallingFeed();
    const run = processes.spawn(['run', url], pipeline.env);
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 5);

    run.process.kill('SIGKILL');
    await run.exited;
    const { id } = JSON.parse((await pipeline.cli(['status', '--json'])).stdout) as { id: string };
    // Its mark outlives it by a minute (six beats of 10 s): taken away, as it expires by then, and
    // the run made a minute older (a run younger than a beat may not have its first mark yet).
    await withRedis(async (redis) => {
      const keys = new RedisKeys(pipeline.prefix);
      await redis.del(keys.producing(id));
      await redis.hset(keys.run(id), 'createdAt', String(Date.now() - 60_000));
    });

    const text = await pipeline.cli(['status', id]);
    const json = JSON.parse((await pipeline.cli(['status', id, '--json'])).stdout) as Record<string, unknown>;
    const list = await pipeline.cli(['status', '--list']);
    const listed = JSON.parse((await pipeline.cli(['status', '--list', '--json'])).stdout) as Array<
      Record<string, unknown>
    >;

    const said =
      'running: its source was left unread: the process reading it stopped before the end; ' +
      `run the same source again (that ends this run and reads the source anew), or \`catalog-sync cancel ${id}\``;
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(`run ${id}: ${said}`);
    expect(json).toMatchObject({ state: 'running', produced: false, readerStopped: true, stateText: said });
    expect(list.stdout).toContain(`${id}  ${said}  seller`);
    expect(listed[0]).toMatchObject({ id, state: 'running', readerStopped: true, stateText: said });
    const dashboard = await openDashboard(pipeline.env);
    const shown = (await (await fetch(`${dashboard.url}api/runs/${id}`)).json()) as RunView;
    expect(shown).toMatchObject({ id, state: 'running', stateText: said });
  });
});
