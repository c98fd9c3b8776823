import { describe, expect, it } from 'vitest';
import { runStateText } from '../../../src/cli/run-state-text.js';
import { APPROVAL_STOPPED_AFTER_MS } from '../../../src/defaults.js';
import type { RunRecord } from '../../../src/runs/run-record.js';
import type { SellerStatus } from '../../../src/sellers/seller-state.js';

const NOW = Date.UTC(2026, 10, 27, 21, 30);
const ACTIVE: SellerStatus = { pausedUntil: null, authRejected: false, requestsToday: 0 };
const run = (over: Partial<RunRecord>) =>
  ({ id: 'r1', state: 'running', produced: false, aborted: false, sourceId: 'abc', ...over }) as RunRecord;

describe('runStateText of a run whose reader stopped half way', () => {
  it('offers only the cancel for a run of standard input, which no re-run is taken for', () => {
    expect(runStateText(run({ sourceId: null }), ACTIVE, NOW, true)).toBe(
      'running: its source was left unread: the process reading it stopped before the end; `catalog-sync cancel r1` ends it',
    );
  });

  it('says the pause of its seller after it: the pause lifts by itself, the unread source does not', () => {
    const paused = { ...ACTIVE, pausedUntil: Date.UTC(2026, 10, 28) };
    expect(runStateText(run({}), paused, NOW, true)).toMatch(
      /^running: its source was left unread: .* or `catalog-sync cancel r1`; meanwhile paused/,
    );
  });

  it('says the state alone while its reader is taken for alive', () => {
    expect(runStateText(run({}), ACTIVE, NOW, false)).toBe('running');
  });
});

describe('runStateText of a run whose seller is paused out of reach', () => {
  const at = (ms: number) => `${new Date(ms).toISOString().slice(11, 19)} UTC`;
  const unreachable = (retryAt: number) => ({
    since: NOW - 120_000,
    at: NOW - 60_000,
    retryAt,
    probes: 1,
    cause: 'connection refused (ECONNREFUSED)',
    baseUrl: 'https://api.example.com/api/v1',
  });
  const paused = (retryAt: number, served: boolean): SellerStatus => ({
    ...ACTIVE,
    unreachable: unreachable(retryAt),
    served,
  });
  const HEAD =
    'paused: cannot reach https://api.example.com/api/v1: connection refused (ECONNREFUSED); rows queued';

  it('names the next probe while a live worker or run serves the seller', () => {
    expect(runStateText(run({}), paused(NOW + 5_000, true), NOW)).toBe(
      `${HEAD}, probed again at ${at(NOW + 5_000)}`,
    );
    expect(runStateText(run({}), paused(NOW - 5_000, true), NOW)).toBe(`${HEAD}, probed by the next chunk`);
  });

  it('with no process serving it, says when it was last tried and that no probe is scheduled, however long ago', () => {
    for (const retryAt of [NOW - 5_000, NOW - 6 * 3_600_000, NOW + 5_000]) {
      expect(runStateText(run({}), paused(retryAt, false), NOW)).toBe(
        `${HEAD}, last tried at ${at(NOW - 60_000)}; no probe scheduled: no running worker or run serves the seller (a \`catalog-sync worker\` with its key, or the next \`catalog-sync run\` of its source, takes it up)`,
      );
    }
  });
});

describe('runStateText of a run approved, its writes not queued yet', () => {
  const approved = (since: number, unqueued = true, aliveAgo?: number) =>
    run({
      approvedAt: NOW - since,
      ...(unqueued ? { approvalUnqueued: true } : {}),
      ...(aliveAgo === undefined ? {} : { approvalAliveAt: NOW - aliveAgo }),
      approvedQueued: 3,
    });

  it('says an approve is queueing them, and from when the approve finishes one that stopped', () => {
    expect(runStateText(approved(5_000), ACTIVE, NOW)).toBe(
      `running: an approve is queueing its writes (since ${new Date(NOW - 5_000).toISOString()}); if it was stopped, ` +
        `\`catalog-sync approve r1\` finishes it from ${new Date(NOW - 5_000 + APPROVAL_STOPPED_AFTER_MS).toISOString()}`,
    );
  });

  it('says one begun long ago and heard from lately is queueing, from when its heartbeat would be silent too long', () => {
    expect(runStateText(approved(600_000, true, 2_000), ACTIVE, NOW)).toBe(
      `running: an approve is queueing its writes (since ${new Date(NOW - 600_000).toISOString()}); if it was stopped, ` +
        `\`catalog-sync approve r1\` finishes it from ${new Date(NOW - 2_000 + APPROVAL_STOPPED_AFTER_MS).toISOString()}`,
    );
  });

  it('says the approve stopped once it has been silent too long, and the command that finishes it', () => {
    const stopped =
      'running: an approve stopped before it had queued its writes; `catalog-sync approve r1` finishes it';
    expect(runStateText(approved(APPROVAL_STOPPED_AFTER_MS), ACTIVE, NOW)).toBe(stopped);
    expect(runStateText(approved(600_000, true, APPROVAL_STOPPED_AFTER_MS), ACTIVE, NOW)).toBe(stopped);
  });

  it('says the state alone once its writes are queued', () => {
    expect(runStateText(approved(120_000, false), ACTIVE, NOW)).toBe('running');
  });
});
