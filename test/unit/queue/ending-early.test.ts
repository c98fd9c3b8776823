import { describe, expect, it } from 'vitest';
import { type EndingCause, unsentReason, unsentStatusOf } from '../../../src/queue/ending-early.js';
import { readerWatchText } from '../../../src/queue/producing-mark.js';
import { RedisKeys } from '../../../src/runs/keys.js';

describe('what the rows a run ending early never sent are reported with', () => {
  it.each<[EndingCause, boolean, string]>([
    ['source-broke', false, 'not sent: the source broke before its turn (run it again)'],
    ['source-broke', true, 'not planned: the source broke before its turn (run it again)'],
    [
      'reader-stopped',
      false,
      'not sent: the process reading the source stopped before its turn (a later run reads it anew)',
    ],
    ['interrupted', false, 'not sent: the run was interrupted before its turn (run it again)'],
    ['interrupted', true, 'not planned: the run was interrupted before its turn (run it again)'],
  ])('%s (dry run: %s): %s', (cause, dryRun, said) => {
    expect(unsentReason(dryRun, cause)).toBe(said);
  });

  it('failed when something broke, left out (ok) when the run was interrupted', () => {
    expect(unsentStatusOf({})).toBe('failed');
    expect(unsentStatusOf({ interrupted: true })).toBe('ok');
  });
});

describe("the line of a run that watches an earlier reader's mark", () => {
  it('names the run, the longest wait and why, in the beat it is given', () => {
    const deps = { redis: undefined as never, keys: new RedisKeys('t'), producingBeatMs: 10_000 };
    expect(readerWatchText(deps, 'R', 30_000)).toBe(
      "run R left a reader's mark on this source: waiting up to 30 s to tell whether its process " +
        'still reads it (a live one renews its mark every 10 s; a killed process leaves its mark up to 60 s)',
    );
  });
});
