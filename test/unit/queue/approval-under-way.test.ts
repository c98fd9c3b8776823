import { describe, expect, it } from 'vitest';
import { approvalUnderWayLine } from '../../../src/queue/approval-under-way.js';

describe('approvalUnderWayLine', () => {
  it('tells an approve with --rows to run again with the same --rows once the approval under way has ended', () => {
    const line = approvalUnderWayLine(
      'R1',
      [1, 2],
      'its writes are queued',
      'if that approve was stopped, …',
    );
    expect(line).toBe(
      'run R1 is being approved by another approve (its writes are queued): once that approval has ended, ' +
        'run this approve again with the same --rows (`catalog-sync status R1` shows whether it has); ' +
        'if that approve was stopped, …',
    );
  });

  it('never suggests an approve without --rows', () => {
    for (const rows of [[3], null])
      expect(approvalUnderWayLine('R1', rows, 'since T')).not.toMatch(/without --rows/);
  });

  it('an approve of every held row is told to run again, with no --rows to keep', () => {
    expect(approvalUnderWayLine('R1', null, 'it has just begun')).toBe(
      'run R1 is being approved by another approve (it has just begun): once that approval has ended, ' +
        'run this approve again (`catalog-sync status R1` shows whether it has)',
    );
  });
});
