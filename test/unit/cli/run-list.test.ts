import { describe, expect, it } from 'vitest';
import { type ListedRun, listedOutcome, listedRunLine } from '../../../src/cli/run-list.js';
import { runCounts } from '../../../src/runs/summary.js';
import { runRecord } from '../../support/run-record.js';

const listed = (over: Partial<ListedRun>): ListedRun => ({
  id: '20261127T020001-4bab7f',
  createdAt: 0,
  state: 'done',
  stateText: 'done',
  readerStopped: false,
  sellerRef: '52f579d4eef6075c',
  sellerName: 'shop-a',
  source: 'nightly.csv',
  dryRun: false,
  outcome: '3 created, 0 updated',
  counts: {} as ListedRun['counts'],
  ...over,
});

describe('listedRunLine', () => {
  it('is one line per run, whatever the record in Redis holds', () => {
    const line = listedRunLine(listed({ source: '/evil\r\nFAKE LINE', sellerName: 'x\ny' }));
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('/evil\\x0d\\x0aFAKE LINE');
    expect(line).toContain('seller x\\x0ay (52f579d4eef6075c)');
  });

  it('says the run, its state, its seller, its source and its outcome', () => {
    expect(listedRunLine(listed({ dryRun: true }))).toBe(
      '20261127T020001-4bab7f  done (dry run)  seller shop-a (52f579d4eef6075c)  nightly.csv  3 created, 0 updated',
    );
  });
});

describe('listedOutcome', () => {
  const outcome = (counts: Record<string, number>, dryRun = false) => {
    const run = runRecord({ counts, dryRun });
    return listedOutcome(run, runCounts(run));
  };

  it("adds a run's deactivations (--missing) to its rows' outcomes, only when there are any", () => {
    expect(outcome({ 'pair:create:ok': 1, 'pair:update:ok': 1, 'pair:deactivate:ok': 1 })).toBe(
      '1 created, 1 updated, 0 unchanged, 0 invalid, 0 failed, 1 deactivated',
    );
    expect(outcome({ 'pair:create:ok': 1 })).toBe('1 created, 0 updated, 0 unchanged, 0 invalid, 0 failed');
  });

  it('names those planned, held and failed apart; those already so are no write', () => {
    expect(outcome({ 'pair:deactivate:planned': 2 }, true)).toBe(
      '0 to create, 0 to update, 0 unchanged, 0 invalid, 0 failed, 2 to deactivate',
    );
    expect(
      outcome({
        'pair:deactivate:ok': 3,
        'notes:already-so': 1,
        'pair:deactivate:failed': 1,
        'pair:deactivate:held': 4,
      }),
    ).toBe(
      '0 created, 0 updated, 0 unchanged, 0 invalid, 0 failed, 2 deactivated, 4 deactivations held, 1 deactivation failed',
    );
  });
});
