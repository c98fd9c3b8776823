import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisKeys } from '../../../src/runs/keys.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { until } from '../support/until.js';

const ROWS = 400;
// Rows of some 250 bytes: the feed passes the 64 KiB a run sniffs before it stalls.
const DESCRIPTION = 'A description long enough to pass 64 KiB in a few hundred rows. '.repeat(3);
// The seams: a reader's mark renewed every second (10 s by default), so that a killed reader is
// known dead 3 s on; a killed process's chunk locks run out in 1 s, and a live process's stall check
// looks every 200 ms (its chunks of the killed runs are settled by it).
const SEAMS = {
  CATALOG_SYNC_PRODUCING_BEAT_MS: '1000',
  CATALOG_SYNC_LOCK_MS: '1000',
  CATALOG_SYNC_STALL_CHECK_MS: '200',
};

/**
 * A CSV feed on loopback, the same content on every read: past the 64 KiB a run sniffs it stalls,
 * never ending its answer (a `run` of it is caught mid-read), until `ends` is set.
 */
function useFeed() {
  let server: Server | undefined;
  const feed = { url: '', ends: false };
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });
  return async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/csv' });
      response.write('sku,name,price,description\n');
      for (const row of catalogRows(ROWS))
        response.write(`${row.sku},Product ${row.sku},${row.price},${DESCRIPTION}\n`);
      if (feed.ends) response.end();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    feed.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.csv`;
    return feed;
  };
}

function jsonLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('a full run of a source after two runs of it were killed (kill -9)', () => {
  const pipeline = usePipeline({ latencyMs: 2 });
  const startFeed = useFeed();

  async function runIds(): Promise<string[]> {
    return withRedis((redis) => redis.zrange(new RedisKeys(pipeline.prefix).runs, 0, -1));
  }
  async function statusOf(runId: string) {
    return JSON.parse((await pipeline.cli(['status', runId, '--json'])).stdout) as Record<string, unknown>;
  }

  it('ends both: the one killed mid-read, and the one killed while it waited on that reader', {
    timeout: 60_000,
  }, async () => {
    const feed = await startFeed();
    // The first: killed mid-read, some of its rows written.
    const first = pipeline.spawn(['run', feed.url], SEAMS);
    await until('some writes', () => pipeline.sandbox.stats().writesApplied >= 5);
    first.process.kill('SIGKILL');
    await first.exited;
    const [firstRun] = await runIds();
    if (!firstRun) throw new Error('no first run');
    // The second: killed once its run exists, while it watches the first's mark (3 beats) before
    // it could end that run and claim the source.
    const second = pipeline.spawn(['run', feed.url], SEAMS);
    await until('the second run created', async () => (await runIds()).length === 2);
    second.process.kill('SIGKILL');
    await second.exited;
    const secondRun = (await runIds()).find((id) => id !== firstRun) as string;
    // Killed before it ended the first run: nothing of its own claimed the source.
    expect(await statusOf(firstRun)).not.toHaveProperty('endingEarly');
    expect(await statusOf(firstRun)).toMatchObject({ aborted: false });

    feed.ends = true;
    const full = await pipeline.cli(['run', feed.url], { ...SEAMS, LOG_LEVEL: 'info', LOG_FORMAT: 'json' });

    expect(full.code, full.stderr).toBe(0);
    const fullRun = runIdOf(full.stdout);
    expect(await statusOf(fullRun)).toMatchObject({ state: 'done', settled: ROWS });
    const endedEarly = `ended early: its process stopped before the source was read to the end; run ${fullRun} reads it anew`;
    // Neither killed run is left `queued` or `running` for ever: both ended early, by the full run.
    await until('the first run ends (its chunks under way settle)', async () => {
      return (await statusOf(firstRun)).aborted === true;
    });
    for (const killed of [firstRun, secondRun]) {
      expect(await statusOf(killed)).toMatchObject({ state: 'done', aborted: true, stateText: endedEarly });
      const report = await pipeline.cli(['report', killed]);
      expect(report.code, report.stderr).toBe(0);
    }
    const listed = JSON.parse((await pipeline.cli(['status', '--list', '--json'])).stdout) as Array<{
      state: string;
    }>;
    expect(listed.map((run) => run.state)).toEqual(['done', 'done', 'done']);
    // The log line of each one's end gives the state `status` gives: ended early, never `done`.
    for (const killed of [firstRun, secondRun]) {
      const ends = jsonLines(full.stderr).filter((line) => line.run === killed && line.rows !== undefined);
      expect(ends).toEqual([
        expect.objectContaining({
          state: 'ended-early',
          endedEarly: endedEarly.replace('ended early: ', ''),
          msg: `run ${killed} ${endedEarly}`,
        }),
      ]);
    }
    const products = pipeline.products();
    expect(new Set(products.map((product) => product.sku)).size).toBe(ROWS);
    expect(products).toHaveLength(ROWS);
  });
});
