import { describe, expect, it } from 'vitest';
import type { RunView, SellerView } from '../../../src/dashboard/views.js';
import { RedisKeys } from '../../../src/runs/keys.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { MAIN_SELLER, usePipeline } from '../support/pipeline.js';
import { withRedis } from '../support/redis-prefix.js';
import { getWithHost, useDashboards } from './support.js';

type RunsJson = { runs: RunView[] };
type ErrorJson = { error: string };

describe('the dashboard JSON API', () => {
  const pipeline = usePipeline();
  const openDashboard = useDashboards();

  /** A run with creates, an update, an invalid row and a missing remote product; resolves to its id. */
  async function mixedRun(): Promise<string> {
    pipeline.sandbox.seedProducts(MAIN_SELLER, [
      { sku: 'SKU-00001', name: 'Stale name', price: 1 },
      { sku: 'GONE', name: 'Not in the source', price: 1 },
    ]);
    const rows = [...catalogRows(5), { sku: 'BAD', name: 'Bad', price: 'n/a' }];
    const result = await pipeline.cli(['run', await pipeline.csv('catalog.csv', rows)]);
    expect(result.code).toBe(1);
    return runIdOf(result.stdout);
  }

  async function getJson<T>(url: string) {
    const reply = await fetch(url);
    return { status: reply.status, body: (await reply.json()) as T };
  }

  it('lists a finished run with its state, counts and requests', async () => {
    const runId = await mixedRun();
    const dashboard = await openDashboard(pipeline.env);

    const { status, body } = await getJson<RunsJson>(`${dashboard.url}api/runs`);

    expect(status).toBe(200);
    expect(body.runs).toEqual([
      expect.objectContaining({
        id: runId,
        sellerRef: expect.stringMatching(/^[0-9a-f]{16}$/),
        state: 'done',
        stateText: 'done',
        dryRun: false,
        total: 6,
        settled: 6,
        counts: expect.objectContaining({
          created: 4,
          updated: 1,
          unchanged: 0,
          invalid: 1,
          failed: 0,
          missing: 1,
        }),
        requests: 6,
        reportUrl: `/runs/${runId}/report.csv`,
      }),
    ]);
    expect(body.runs[0]?.finishedAt).toBeGreaterThanOrEqual(body.runs[0]?.startedAt ?? Number.NaN);
  });

  it('lists the newest run first, and no more than ?limit=', async () => {
    const first = await mixedRun();
    const second = runIdOf(
      (await pipeline.cli(['import', await pipeline.csv('more.csv', catalogRows(3, 50))])).stdout,
    );
    const dashboard = await openDashboard(pipeline.env);

    const all = await getJson<RunsJson>(`${dashboard.url}api/runs`);
    const one = await getJson<RunsJson>(`${dashboard.url}api/runs?limit=1`);

    expect(all.body.runs.map((run) => run.id)).toEqual([second, first]);
    expect(one.body.runs.map((run) => run.id)).toEqual([second]);
  });

  it('shows a queued run as queued, and its seller with requests today and the waiting jobs', async () => {
    await mixedRun();
    const imported = await pipeline.cli(['import', await pipeline.csv('more.csv', catalogRows(3, 50))]);
    const queuedId = runIdOf(imported.stdout);
    const dashboard = await openDashboard(pipeline.env);

    const sellers = await getJson<{ sellers: SellerView[] }>(`${dashboard.url}api/sellers`);
    const queued = await getJson<RunView>(`${dashboard.url}api/runs/${queuedId}`);

    expect(sellers.body.sellers).toEqual([
      {
        ref: queued.body.sellerRef,
        name: null,
        baseUrl: pipeline.sandbox.baseUrl,
        state: 'active',
        stateText: 'active',
        pausedUntil: null,
        requestsToday: 6,
        queue: { waiting: 1, active: 0, delayed: 0, failed: 0 },
      },
    ]);
    expect(queued.body).toMatchObject({ id: queuedId, state: 'queued', settled: 0, total: 3 });
  });

  it('answers 404 for a run it does not know, in the API and for a report', async () => {
    const dashboard = await openDashboard(pipeline.env);

    const run = await getJson<ErrorJson>(`${dashboard.url}api/runs/20990101T000000-abcdef`);
    const report = await fetch(`${dashboard.url}runs/20990101T000000-abcdef/report.csv`);

    expect(run).toMatchObject({ status: 404, body: { error: expect.stringContaining('no run') } });
    expect(report.status).toBe(404);
  });

  it('serves the report CSV as `catalog-sync report` prints it, as an attachment', async () => {
    const runId = await mixedRun();
    const dashboard = await openDashboard(pipeline.env);

    const reply = await fetch(`${dashboard.url}runs/${runId}/report.csv`);
    const printed = await pipeline.cli(['report', runId]);

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(reply.headers.get('content-disposition')).toMatch(/^attachment; filename=".+\.csv"$/);
    expect(await reply.text()).toBe(printed.stdout);
  });

  it('never shows the API key', async () => {
    await mixedRun();
    const dashboard = await openDashboard(pipeline.env);

    const texts = await Promise.all(
      ['', 'api/sellers', 'api/runs'].map(async (path) => (await fetch(`${dashboard.url}${path}`)).text()),
    );

    for (const text of texts) expect(text).not.toContain(pipeline.env.SELLER_API_KEY);
  });

  it('is read-only: anything but GET answers 405', async () => {
    const dashboard = await openDashboard(pipeline.env);

    const reply = await fetch(`${dashboard.url}api/runs`, { method: 'POST' });

    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET');
  });

  it('answers 400 naming `limit` when it is not a number in range', async () => {
    const dashboard = await openDashboard(pipeline.env);

    const reply = await getJson<ErrorJson>(`${dashboard.url}api/runs?limit=lots`);

    expect(reply).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^limit: lots/) } });
  });

  it('answers only to its loopback address, not to another host name (DNS rebinding)', async () => {
    const dashboard = await openDashboard(pipeline.env);
    const port = new URL(dashboard.url).port;

    expect(await getWithHost(`${dashboard.url}api/runs`, `localhost:${port}`)).toBe(200);
    expect(await getWithHost(`${dashboard.url}api/runs`, `attacker.example:${port}`)).toBe(421);
  });
});

describe('the dashboard JSON API, when a seller is paused', () => {
  const pipeline = usePipeline();
  const openDashboard = useDashboards();

  it('shows the seller paused until the reset, and its unfinished run held by the pause', async () => {
    const imported = await pipeline.cli(['import', await pipeline.csv('catalog.csv', catalogRows(3))]);
    const runId = runIdOf(imported.stdout);
    const dashboard = await openDashboard(pipeline.env);
    const { runs } = (await (await fetch(`${dashboard.url}api/runs`)).json()) as { runs: RunView[] };
    const ref = runs[0]?.sellerRef ?? '';
    const until = Date.now() + 3 * 3600_000;
    await withRedis((redis) =>
      redis.set(new RedisKeys(pipeline.prefix).pausedUntil(ref), until, 'PX', 3 * 3600_000),
    );

    const { sellers } = (await (await fetch(`${dashboard.url}api/sellers`)).json()) as {
      sellers: SellerView[];
    };
    const run = (await (await fetch(`${dashboard.url}api/runs/${runId}`)).json()) as RunView;

    const pausedText = expect.stringMatching(
      /^paused until (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in (2 h 59 min|3 h 0 min)\)$/,
    );
    expect(sellers[0]).toMatchObject({ state: 'paused', pausedUntil: until, stateText: pausedText });
    expect(run).toMatchObject({ state: 'queued', stateText: pausedText });
  });
});
