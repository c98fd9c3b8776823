import { describe, expect, it } from 'vitest';
import { runStateText } from '../../../src/cli/run-state-text.js';
import type { RunRecord } from '../../../src/runs/run-record.js';
import type { SellerStatus } from '../../../src/sellers/seller-state.js';

const NOW = Date.UTC(2026, 10, 27, 21, 30);
const ACTIVE: SellerStatus = { pausedUntil: null, authRejected: false, requestsToday: 0 };
const run = (over: Partial<RunRecord>) =>
  ({ id: 'r1', state: 'running', produced: false, aborted: false, sourceId: 'abc', ...over }) as RunRecord;

describe('runStateText of a run whose reader stopped half way', () => {
  it('offers only the cancel for a run of standard input, which no re-run is taken for', () => {
    expect(runStateText(run({ sourceId: null }), ACTIVE, NOW, true)).toBe(
      'running: its source was left unread: the process reading it stopped before the end; `catalog-sync cancel r1` ends it',
    );
  });

  it('says the pause of its seller after it: the pause lifts by itself, the unread source does not', () => {
    const paused = { ...ACTIVE, pausedUntil: Date.UTC(2026, 10, 28) };
    expect(runStateText(run({}), paused, NOW, true)).toMatch(
      /^running: its source was left unread: .* or `catalog-sync cancel r1`; meanwhile paused/,
    );
  });

  it('says the state alone while its reader is taken for alive', () => {
    expect(runStateText(run({}), ACTIVE, NOW, false)).toBe('running');
  });
});
