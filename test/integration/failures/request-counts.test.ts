import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../../src/sandbox/index.js';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { expectExactCatalog } from './support/exact-catalog.js';
import { mulberry32 } from './support/prng.js';
import {
  type FailureRig,
  killAfterWrites,
  type RunStatus,
  runDone,
  SELLER_A,
  useFailureRig,
} from './support/rig.js';

/** What `status --json` says of a run's requests, besides what the rig's RunStatus reads. */
type CountedStatus = RunStatus & { requests: number; writes: number; requestsAtLeast?: boolean };

/** The writes the sandbox applied and answered: POSTs and PUTs it answered 2xx. */
function answeredWrites(requests: LoggedRequest[]): number {
  return requests.filter(
    (request) =>
      (request.method === 'POST' || request.method === 'PUT') &&
      typeof request.status === 'number' &&
      request.status >= 200 &&
      request.status < 300,
  ).length;
}

/** `run <rows>`, then the run's `status --json` and the sandbox's request log. */
async function runAndCount(rig: FailureRig, rows: number, flags: string[] = []) {
  const catalog = catalogRows(rows);
  const result = await rig.cli(['run', await rig.csv('catalog.csv', catalog), ...flags]);
  expect(result.code, result.stderr).toBe(0);
  expectExactCatalog(rig.sandbox.products(SELLER_A), catalog);
  const status = (await rig.status(runIdOf(result.stdout))) as CountedStatus;
  return { result, status, served: rig.sandbox.requests() };
}

describe("a run's requests and writes are what the API served", () => {
  describe('across daily-limit crossings (429s to POSTs)', () => {
    // 120 rows at 40 requests a one-second day: the run crosses the limit twice or more.
    const rig = useFailureRig(() => ({
      dailyLimit: 40,
      dayLengthMs: 1000,
      resetHeader: 'x-ratelimit-reset-ms',
    }));

    it('counts a POST answered 429 as a request, not as a write', { timeout: 60_000 }, async () => {
      const { result, status, served } = await runAndCount(rig, 120, ['--concurrency', '4']);

      const refusedWrites = served.filter((request) => request.method === 'POST' && request.status === 429);
      expect(refusedWrites.length, 'POSTs answered 429').toBeGreaterThan(0);
      expect(status.writes).toBe(answeredWrites(served));
      expect(status.requests).toBe(served.length);
      // The summary a seller reads says the same.
      expect(result.stdout).toContain(`requests  ${served.length} (${answeredWrites(served)} writes)`);
      // No worker died: the counts are exact, and said so.
      expect(status.requestsAtLeast).toBeUndefined();
      expect((await rig.cli(['status', status.id])).stdout).not.toContain('at least');
    });
  });

  describe('with 10% server faults and 5% lost write answers', () => {
    const rig = useFailureRig(() => ({
      failRate: 0.1,
      dropResponseRate: 0.05,
      random: mulberry32(20_240_601),
    }));

    it('counts as writes only those answered 2xx: a 500 or a lost answer is a request', {
      timeout: 60_000,
    }, async () => {
      const { status, served } = await runAndCount(rig, 200);

      const failedWrites = served.filter(
        (request) => request.method !== 'GET' && (request.status === 500 || request.status === 'dropped'),
      );
      expect(failedWrites.length, 'writes answered 500 or not at all').toBeGreaterThan(0);
      expect(status.writes).toBe(answeredWrites(served));
      expect(status.requests).toBe(served.length);
    });
  });

  describe('when a worker is killed (SIGKILL) mid-run', () => {
    // 20 ms per answer: the kill lands with requests in flight and answers not yet added.
    const rig = useFailureRig(() => ({ latencyMs: 20 }));

    it('the counts say "at least": what the killed worker had not added is missing, never more', {
      timeout: 60_000,
    }, async () => {
      const rows = catalogRows(300);
      // A killed worker's chunks come back once their 2-second lock runs out.
      const env = rig.env(undefined, { CATALOG_SYNC_LOCK_MS: '2000', CATALOG_SYNC_STALL_CHECK_MS: '300' });
      const imported = await rig.cli(['import', await rig.csv('catalog.csv', rows)], env);
      expect(imported.code).toBe(0);
      const runId = runIdOf(imported.stdout);
      await killAfterWrites(rig, rig.spawn(['worker', '--concurrency', '4'], env), 60);
      rig.spawn(['worker', '--concurrency', '4'], env);
      const status = (await runDone(rig, runId)) as CountedStatus;

      expectExactCatalog(rig.sandbox.products(SELLER_A), rows);
      const served = rig.sandbox.requests();
      expect(status.requests).toBeLessThanOrEqual(served.length);
      expect(status.writes).toBeLessThanOrEqual(answeredWrites(served));
      expect(status.requestsAtLeast).toBe(true);
      const text = (await rig.cli(['status', runId], env)).stdout;
      expect(text).toContain(`requests  at least ${status.requests} by this run`);
    });
  });
});
