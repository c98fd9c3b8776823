import { describe, expect, it } from 'vitest';
import { nothingToApproveLine } from '../../../src/queue/nothing-to-approve.js';
import { runRecord } from '../../support/run-record.js';

describe('nothingToApproveLine', () => {
  it('a run superseded by a newer read of its source: names the run that superseded it', () => {
    const run = runRecord({ id: 'R1', state: 'cancelled', supersededBy: 'R2' });
    // Before: "run R1 holds nothing to approve (it is cancelled)", the run that replaced it unnamed.
    expect(nothingToApproveLine(run)).toBe(
      'run R1 holds nothing to approve: it is cancelled, superseded by run R2 (a newer read of the same source); see `catalog-sync status R2`',
    );
  });

  it('any other run: its state', () => {
    expect(nothingToApproveLine(runRecord({ id: 'R1', state: 'done' }))).toBe(
      'run R1 holds nothing to approve (it is done)',
    );
    expect(nothingToApproveLine(runRecord({ id: 'R1', state: 'cancelled' }))).toBe(
      'run R1 holds nothing to approve (it is cancelled)',
    );
  });
});
