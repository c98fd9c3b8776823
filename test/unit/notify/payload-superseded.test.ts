import { describe, expect, it } from 'vitest';
import { notifyBody } from '../../../src/notify/payload.js';
import { runRecord } from '../../support/run-record.js';

describe('the notify payload of a run superseded by a newer read of its source', () => {
  const run = runRecord({
    id: '20261122T020000-abcdef',
    sellerRef: 'abcdef0123456789',
    state: 'cancelled',
    supersededBy: '20261123T020000-123456',
    counts: { 'action:update': 19, 'pair:update:ok': 19, 'action:skipped': 11, 'pair:skipped:ok': 11 },
  });

  it('names the run that superseded it and counts the rows it left unsent, not `done`', () => {
    const body = notifyBody('ended', run);
    expect(body).toMatchObject({ state: 'cancelled', supersededBy: '20261123T020000-123456' });
    expect(body.text).toBe(
      'catalog-sync run 20261122T020000-abcdef superseded by run 20261123T020000-123456 (a newer read of the same source): 0 created, 19 updated, 0 failed, 11 skipped (seller abcdef0123456789)',
    );
  });
});
