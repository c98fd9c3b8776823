import { describe, expect, it } from 'vitest';
import { reservedText } from '../../../src/cli/commands/status.js';

const seller = (requestsReserved: number) => ({
  pausedUntil: null,
  authRejected: false,
  requestsToday: 40,
  requestsReserved,
});

describe('what `status` says of the request numbers held in blocks', () => {
  it('none held: nothing', () => {
    expect(reservedText(seller(0))).toBe('');
  });

  it('some held: true whether chunks are under way or a process stopped holding them (killed), since a count cannot tell which', () => {
    const text = reservedText(seller(16));
    expect(text).toBe(
      ' (and up to 16 more reserved, by chunks under way or by a process that stopped before giving them back: not all sent)',
    );
    // The old wording claimed chunks were under way, for the rest of the quota day after a kill.
    expect(text).not.toMatch(/^ \(and up to 16 more reserved by chunks under way/);
  });
});
