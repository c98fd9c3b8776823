import { describe, expect, it } from 'vitest';
import { unsettledLine } from '../../../src/cli/commands/report.js';
import type { RunRecord } from '../../../src/runs/run-record.js';

const run = (over: Partial<RunRecord>) =>
  ({ id: 'r1', state: 'running', produced: true, sourceId: 'feed-1', ...over }) as Pick<
    RunRecord,
    'id' | 'state' | 'produced' | 'sourceId'
  >;

describe('what `report` says on stderr of the rows it left out', () => {
  it('a run not over: how many rows are still to settle', () => {
    expect(unsettledLine(run({ state: 'queued' }), 1)).toBe(
      'run r1 is not over (queued): 1 row still to settle is not listed; report it again once it ends',
    );
  });

  it('a running run whose rows read so far all settled: that they are listed, and that it is not over', () => {
    expect(unsettledLine(run({ produced: false }), 0)).toBe(
      'run r1 is not over (running): every row read so far is settled and listed, its source is still being read; report it again once it ends',
    );
  });

  it('a run whose reader stopped: not "still being read", but that it was left unread and how to end it', () => {
    expect(unsettledLine(run({ produced: false }), 1, true)).toBe(
      'run r1 is not over (running): 1 row read so far still to settle is not listed; its source was left unread: ' +
        'the process reading it stopped before the end; run the same source again (that ends this run and reads ' +
        'the source anew), or `catalog-sync cancel r1`',
    );
  });

  it('a run that ended whole: nothing', () => {
    for (const state of ['done', 'held', 'cancelled'] as const)
      expect(unsettledLine(run({ state }), 0)).toBeNull();
  });

  it('a run that ended with rows never settled (outcomes lost): said, not passed over', () => {
    expect(unsettledLine(run({ state: 'done' }), 2)).toBe(
      'run r1 ended (done) with 2 rows never settled: they are not listed',
    );
  });
});
