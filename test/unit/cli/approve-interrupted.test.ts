import { describe, expect, it } from 'vitest';
import { approveInterruptedText } from '../../../src/cli/approve-interrupted.js';

const goesOn = 'any `catalog-sync worker` or another `catalog-sync approve R`';

describe('approveInterruptedText: what an interrupted approve says, from the record', () => {
  it('counts the approved rows settled and those still queued', () => {
    expect(approveInterruptedText('SIGINT', 'R', { state: 'running', approvedQueued: 28 }, 40)).toBe(
      `catalog-sync: interrupted (SIGINT): 12 of the 40 approved rows of run R settled before it stopped, 28 stay queued and go on with ${goesOn}.\n`,
    );
    expect(approveInterruptedText('SIGTERM', 'R', { state: 'running', approvedQueued: 1 }, 4)).toBe(
      `catalog-sync: interrupted (SIGTERM): 3 of the 4 approved rows of run R settled before it stopped, 1 stays queued and goes on with ${goesOn}.\n`,
    );
  });

  it('never says "stay queued" of a round that ended', () => {
    expect(approveInterruptedText('SIGINT', 'R', { state: 'done' }, 0)).toBe(
      'catalog-sync: interrupted (SIGINT): every approved row of run R settled before it stopped: the run is done (`catalog-sync report R`).\n',
    );
  });

  it("without the round's count (an older record), says only what stays queued", () => {
    expect(approveInterruptedText('SIGINT', 'R', { state: 'running', approvedQueued: 5 }, 0)).toBe(
      `catalog-sync: interrupted (SIGINT): of the approved rows of run R, 5 stay queued and go on with ${goesOn}.\n`,
    );
  });
});
