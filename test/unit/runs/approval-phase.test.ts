import { describe, expect, it } from 'vitest';
import { APPROVAL_STOPPED_AFTER_MS } from '../../../src/defaults.js';
import { approvalPhase, approveLastHeardAt } from '../../../src/runs/approval-phase.js';

const START = 1_800_000_000_000;
const unqueued = { state: 'running' as const, approvalUnqueued: true, approvedAt: START };

describe('the phase of an approval whose writes are not all queued', () => {
  it.each([
    ['just begun, no heartbeat yet', {}, START + 1_000, 'queueing'],
    [
      'silent since its start (a record from before heartbeats)',
      {},
      START + APPROVAL_STOPPED_AFTER_MS,
      'stopped',
    ],
    [
      'begun ten minutes ago, its heartbeat a second old',
      { approvalAliveAt: START + 599_000 },
      START + 600_000,
      'queueing',
    ],
    [
      'its heartbeat as old as the bound',
      { approvalAliveAt: START + 600_000 },
      START + 600_000 + APPROVAL_STOPPED_AFTER_MS,
      'stopped',
    ],
    [
      'taken over since its last heartbeat',
      { approvalAliveAt: START + 5_000, approvalResumedAt: START + 600_000 },
      START + 601_000,
      'queueing',
    ],
  ])('%s', (_what, fields, now, phase) => {
    expect(approvalPhase({ ...unqueued, ...fields }, now)).toBe(phase);
  });

  it('is heard from at its heartbeat, or at its start when that is later', () => {
    expect(approveLastHeardAt({ approvedAt: START, approvalAliveAt: START + 9 })).toBe(START + 9);
    expect(
      approveLastHeardAt({ approvedAt: START, approvalResumedAt: START + 20, approvalAliveAt: START + 9 }),
    ).toBe(START + 20);
  });
});
