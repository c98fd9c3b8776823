import { describe, expect, it } from 'vitest';
import { pauseEventOf } from '../../../src/notify/pause-notice.js';
import { notifyBody } from '../../../src/notify/payload.js';
import type { SellerStatus } from '../../../src/sellers/seller-state.js';
import { outOfReachText } from '../../../src/sync/seller-pause.js';
import { runRecord } from '../../support/run-record.js';

const BASE_URL = 'https://api.example.com/x/api/v1';

describe("the `api-unreachable` webhook's text", () => {
  const run = runRecord({
    id: '20261122T210000-abcdef',
    sellerRef: 'abcdef0123456789',
    state: 'running',
    baseUrl: BASE_URL,
  });

  it('no Seller API under the base URL: the words of `run` and `ping`, and the cancel that drops the rows', () => {
    const failure = 'GET /products: 404 Not Found: no such endpoint';
    const body = notifyBody('api-unreachable', run, { unreachable: { cause: failure, noApi: true } });

    expect(body.text).toBe(
      `catalog-sync run ${run.id} paused: ${outOfReachText(BASE_URL, failure, true)}; its rows stay queued, none sent: ` +
        `drop them with catalog-sync cancel ${run.id} (seller abcdef0123456789)`,
    );
    expect(body.text).toContain(`no Seller API at ${BASE_URL}: GET /products: 404 Not Found`);
  });

  it('an API out of reach names its cause, as `status` does; the rows go on once it answers', () => {
    const body = notifyBody('api-unreachable', run, {
      unreachable: { cause: 'connection refused (ECONNREFUSED)', noApi: false },
    });

    expect(body.text).toBe(
      `catalog-sync run ${run.id} paused: cannot reach ${BASE_URL}: connection refused (ECONNREFUSED); ` +
        'its rows stay queued and go on once the API answers (seller abcdef0123456789)',
    );
  });

  it('a run approved, its writes not all queued: never "its rows stay queued", and the approve that finishes it', () => {
    const approving = { ...run, approvedAt: 1, approvalUnqueued: true };
    const unqueued = `its approved rows are not all queued yet (if the approve queueing them stopped, catalog-sync approve ${run.id} finishes it)`;
    const reach = notifyBody('api-unreachable', approving, {
      unreachable: { cause: 'connection refused (ECONNREFUSED)', noApi: false },
    });
    const limit = notifyBody('paused', approving, { resumesAt: Date.UTC(2026, 10, 23) });

    expect(reach.text).toBe(
      `catalog-sync run ${run.id} paused: cannot reach ${BASE_URL}: connection refused (ECONNREFUSED); ${unqueued} (seller abcdef0123456789)`,
    );
    expect(limit.text).toBe(
      `catalog-sync run ${run.id} paused on the daily limit until 2026-11-23T00:00:00.000Z; ${unqueued} (seller abcdef0123456789)`,
    );
  });

  it("a pause met at a run's start carries the seller's reach record into the event", () => {
    const unreachable = {
      since: 1,
      retryAt: 2,
      probes: 0,
      cause: 'GET /ping: 404',
      baseUrl: BASE_URL,
      noApi: true,
    };
    const seller = { authRejected: false, pausedUntil: null, unreachable } as unknown as SellerStatus;

    expect(pauseEventOf(seller)).toEqual({
      event: 'api-unreachable',
      unreachable: { cause: 'GET /ping: 404', noApi: true },
    });
  });
});
