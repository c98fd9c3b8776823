// Pure functions of the dashboard (no Redis): kept beside its integration tests.
import { describe, expect, it } from 'vitest';
import { type Route, routeRequest } from '../../../src/dashboard/routes.js';
import { runView, sellerView } from '../../../src/dashboard/views.js';
import type { RunRecord } from '../../../src/runs/run-store.js';
import { runRecord } from '../../support/run-record.js';

const NOW = Date.UTC(2026, 10, 22, 21, 30);
const MIDNIGHT = Date.UTC(2026, 10, 23, 0, 0);

describe('routeRequest', () => {
  it.each<[string, string, Route]>([
    ['GET', '/', { kind: 'page' }],
    ['GET', '/api/sellers', { kind: 'sellers' }],
    ['GET', '/api/runs', { kind: 'runs', limit: 50 }],
    ['GET', '/api/runs?limit=7', { kind: 'runs', limit: 7 }],
    ['GET', '/api/runs/20261122T125413-ee9c7b', { kind: 'run', id: '20261122T125413-ee9c7b' }],
    ['GET', '/runs/20261122T125413-ee9c7b/report.csv', { kind: 'report', id: '20261122T125413-ee9c7b' }],
    ['GET', '/api/runs?limit=0', { kind: 'error', status: 400, message: expect.stringMatching(/^limit: 0/) }],
    ['GET', '/api/runs?limit=501', { kind: 'error', status: 400, message: expect.stringMatching(/^limit/) }],
    ['GET', '/api/runs/..%2Fsecret', { kind: 'error', status: 404, message: expect.any(String) }],
    ['GET', '/favicon.ico', { kind: 'error', status: 404, message: 'nothing at /favicon.ico' }],
    ['POST', '/api/runs', { kind: 'error', status: 405, message: 'POST is not allowed; use GET' }],
    [
      'DELETE',
      '/api/runs/20261122T125413-ee9c7b',
      { kind: 'error', status: 405, message: expect.any(String) },
    ],
  ])('%s %s → %j', (method, path, route) => {
    expect(routeRequest(method, new URL(path, 'http://127.0.0.1:4020'))).toEqual(route);
  });
});

describe('sellerView', () => {
  const info = { ref: 'abcdef0123456789', baseUrl: 'http://127.0.0.1:4010/api/v1', queueName: 'sync-x' };
  const queue = { waiting: 3, active: 1, delayed: 0, failed: 0 };

  it.each([
    [{ pausedUntil: null, authRejected: false }, 'active', 'active'],
    [
      { pausedUntil: MIDNIGHT, authRejected: false },
      'paused',
      'paused until 2026-11-23 00:00 UTC (in 2 h 30 min)',
    ],
    [
      { pausedUntil: MIDNIGHT, authRejected: true },
      'key-rejected',
      expect.stringMatching(/^key rejected \(401\)/),
    ],
    [
      {
        pausedUntil: null,
        authRejected: false,
        unreachable: {
          since: NOW - 60_000,
          retryAt: NOW + 5_000,
          probes: 2,
          cause: 'connection refused (ECONNREFUSED)',
          baseUrl: 'https://api.example.com/api/v1',
        },
      },
      'unreachable',
      `cannot reach https://api.example.com/api/v1: connection refused (ECONNREFUSED); probed again at ${new Date(NOW + 5_000).toISOString().slice(11, 19)} UTC`,
    ],
  ])('with %j the state is %s', (status, state, stateText) => {
    const view = sellerView(info, { ...status, requestsToday: 42 }, queue, NOW);

    expect(view).toEqual({
      ref: info.ref,
      name: null,
      baseUrl: info.baseUrl,
      state,
      stateText,
      pausedUntil: status.pausedUntil,
      requestsToday: 42,
      queue,
    });
  });
});

describe('sellerView of a seller out of reach that no process serves', () => {
  const info = { ref: 'abcdef0123456789', baseUrl: 'https://api.example.com/x/api/v1', queueName: 'sync-x' };
  const queue = { waiting: 3, active: 0, delayed: 0, failed: 0 };

  it('says when it was last tried and that no probe is scheduled, not a probe time long past', () => {
    const status = {
      pausedUntil: null,
      authRejected: false,
      requestsToday: 1,
      served: false,
      unreachable: {
        since: NOW - 3_600_000,
        at: NOW - 3_600_000,
        retryAt: NOW - 3_595_000,
        probes: 0,
        cause: 'GET /products: 404 Not Found: no such endpoint',
        baseUrl: 'https://api.example.com/x/api/v1',
        noApi: true,
      },
    };
    const at = new Date(NOW - 3_600_000).toISOString().slice(11, 19);

    expect(sellerView(info, status, queue, NOW).stateText).toBe(
      "no Seller API at https://api.example.com/x/api/v1: GET /products: 404 Not Found: no such endpoint (check the base URL: --base-url, SELLER_API_BASE_URL or the job's baseUrl); " +
        `last tried at ${at} UTC; no probe scheduled: no running worker or run serves the seller (a \`catalog-sync worker\` with its key, or the next \`catalog-sync run\` of its source, takes it up)`,
    );
  });
});

describe('runView', () => {
  const run: RunRecord = runRecord({
    id: '20261122T210000-abcdef',
    sellerRef: 'abcdef0123456789',
    baseUrl: 'http://127.0.0.1:4010/api/v1',
    state: 'running',
    createdAt: NOW - 90_000,
    finishedAt: null,
    total: 10,
    settled: 4,
    requests: 5,
    writes: 4,
    counts: { 'pair:create:ok': 4, 'action:create': 4, 'status:ok': 4 },
  });

  it.each([
    ['a running run of an active seller', run, { pausedUntil: null, authRejected: false }, 'running'],
    [
      'a running run of a paused seller',
      run,
      { pausedUntil: MIDNIGHT, authRejected: false },
      'paused until 2026-11-23 00:00 UTC (in 2 h 30 min)',
    ],
    [
      'a running run of a rejected key',
      run,
      { pausedUntil: null, authRejected: true },
      'paused: API key rejected (401)',
    ],
    [
      'a finished run, whatever its seller',
      { ...run, state: 'done' as const },
      { pausedUntil: MIDNIGHT, authRejected: true },
      'done',
    ],
  ])('says of %s: %s', (_, record, status, stateText) => {
    expect(runView(record, { ...status, requestsToday: 0 }, NOW).stateText).toBe(stateText);
  });

  it('counts the duration until now while the run goes on, and until it finished after', () => {
    expect(runView(run, undefined, NOW)).toMatchObject({ durationMs: 90_000, durationText: '1 min 30 s' });
    expect(runView({ ...run, state: 'done', finishedAt: NOW - 60_000 }, undefined, NOW)).toMatchObject({
      durationMs: 30_000,
      durationText: '30.0 s',
    });
  });

  it('says when the requests are a lower bound (a process serving the run died mid-chunk)', () => {
    expect(runView(run, undefined, NOW)).toMatchObject({ requests: 5, writes: 4, requestsAtLeast: false });
    expect(runView({ ...run, requestsAtLeast: true }, undefined, NOW)).toMatchObject({
      requestsAtLeast: true,
    });
  });

  it("shows a named seller's name beside its ref, and null for an unnamed one", () => {
    expect(runView({ ...run, sellerName: 'acme' }, undefined, NOW)).toMatchObject({
      sellerRef: run.sellerRef,
      sellerName: 'acme',
    });
    expect(runView(run, undefined, NOW).sellerName).toBeNull();
    const info = { ref: run.sellerRef, baseUrl: run.baseUrl, queueName: 'sync-x', name: 'acme' };
    const active = { pausedUntil: null, authRejected: false, requestsToday: 0 };
    const queue = { waiting: 0, active: 0, delayed: 0, failed: 0 };
    expect(sellerView(info, active, queue, NOW).name).toBe('acme');
  });

  it('links the report and fills in zero counts', () => {
    expect(runView(run, undefined, NOW)).toMatchObject({
      reportUrl: '/runs/20261122T210000-abcdef/report.csv',
      counts: { created: 4, updated: 0, invalid: 0, failed: 0, missing: 0 },
    });
  });
});

describe('runView of runs that guards, approve, revert and cancel touched', () => {
  const at = Date.parse('2026-03-02T02:00:00Z');

  it('says an approve stopped before it had queued its writes, as status does; the state alone once queued', () => {
    const approved = (unqueued: boolean) =>
      runView(
        runRecord({
          state: 'running',
          finishedAt: null,
          approvedAt: at - 120_000,
          ...(unqueued ? { approvalUnqueued: true } : {}),
        }),
        undefined,
        at,
      ).stateText;
    expect(approved(true)).toBe(
      `running: an approve stopped before it had queued its writes; \`catalog-sync approve ${runRecord({}).id}\` finishes it`,
    );
    expect(approved(false)).toBe('running');
  });

  it('says what tripped a held run, and counts the rows held back', () => {
    const view = runView(
      runRecord({
        state: 'held',
        finishedAt: null,
        heldReason: 'max-invalid: 5 invalid rows (limit 2)',
        counts: { 'status:held': 9 },
      }),
      undefined,
      at,
    );
    expect(view.stateText).toBe('held: max-invalid: 5 invalid rows (limit 2)');
    expect(view.heldReason).toBe('max-invalid: 5 invalid rows (limit 2)');
    expect(view.counts.held).toBe(9);
  });

  it('tells approve, each revert and cancel in the order they happened, revert counts by name', () => {
    const view = runView(
      runRecord({
        state: 'cancelled',
        finishedAt: null,
        createdAt: at,
        cancelledAt: at + 60_000,
        reverts: [
          { at: at + 7_200_000, counts: { reverted: 3, failed: 1 } },
          { at: at + 9_000_000, counts: { reverted: 0, alreadyBack: 3 } },
        ],
        approvedAt: at + 3_600_000,
      }),
      undefined,
      at + 10 * 3_600_000,
    );
    expect(view.stateText).toBe('cancelled');
    expect(view.history).toEqual([
      'cancelled 2026-03-02 02:01 UTC',
      'approved 2026-03-02 03:00 UTC',
      'reverted 2026-03-02 04:00 UTC: 1 failed, 3 reverted',
      'reverted 2026-03-02 04:30 UTC: 3 alreadyBack, 0 reverted',
    ]);
    expect(view.durationMs).toBe(60_000);
  });

  it("tells when an approved run was held, before its approval: its finish is the approval's end", () => {
    const view = runView(
      runRecord({
        state: 'done',
        createdAt: at,
        heldAt: at + 60_000,
        approvedAt: at + 7 * 3_600_000,
        finishedAt: at + 7 * 3_600_000 + 2_000,
      }),
      undefined,
      at + 8 * 3_600_000,
    );
    expect(view.history).toEqual(['held 2026-03-02 02:01 UTC', 'approved 2026-03-02 09:00 UTC']);
    expect(view.finishedAt).toBe(at + 7 * 3_600_000 + 2_000);
  });

  it('names the run that superseded a cancelled run (a newer read of its source)', () => {
    const view = runView(
      runRecord({
        state: 'cancelled',
        createdAt: at,
        cancelledAt: at + 60_000,
        supersededBy: '20260303T020000-abcdef',
      }),
      undefined,
      at + 3_600_000,
    );
    expect(view.history).toEqual([
      'cancelled 2026-03-02 02:01 UTC: superseded by run 20260303T020000-abcdef',
    ]);
  });
});
