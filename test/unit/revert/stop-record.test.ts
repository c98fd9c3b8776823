import { describe, expect, it } from 'vitest';
import { stopCounts, stopNote } from '../../../src/revert/stop-record.js';
import { ApiUnreachableError, SellerPausedError } from '../../../src/sync/seller-pause.js';
import { SendingStoppedError } from '../../../src/sync/sending-stopped.js';

const noteOf = (error: unknown) => stopNote(stopCounts(error) ?? {});

describe('why a revert stopped, as recorded and as `status` says it', () => {
  it('names each stop and what to do before reverting again', () => {
    expect(noteOf(new SendingStoppedError('revert: interrupted'))).toBe(
      'interrupted: revert it again to finish',
    );
    expect(noteOf(new SellerPausedError('daily-limit', Date.parse('2026-11-29T07:30:00Z')))).toBe(
      'stopped: the daily limit is spent until 07:30 UTC: revert it again then',
    );
    expect(noteOf(new SellerPausedError('unauthorized', null))).toMatch(
      /^stopped: the key was rejected \(401\)/,
    );
    expect(
      noteOf(new ApiUnreachableError('http://shop.example.test/v1', 'connection refused (ECONNREFUSED)', 0)),
    ).toBe('stopped: the Seller API was out of reach: revert it again once it answers');
  });

  it('records nothing for an error that is no stop, and notes nothing for a revert that went to its end', () => {
    expect(stopCounts(new Error('a bug'))).toBeNull();
    expect(stopNote({ reverted: 3, left: 0 })).toBeNull();
  });
});
