import { describe, expect, it } from 'vitest';
import { pausedMessage } from '../../../src/cli/progress.js';
import type { RunRecord } from '../../../src/runs/run-store.js';
import { formatDuration, formatSummary, runCounts } from '../../../src/runs/summary.js';
import { runRecord as baseRecord } from '../../support/run-record.js';

const createdAt = Date.parse('2024-05-10T02:00:00Z');

/** The summary of a run as read from Redis, with no host allowed (connection-words.ts). */
const summaryOf = (run: RunRecord, detections?: string[]): string =>
  formatSummary(run, { allowedHosts: [] }, detections);

const runRecord = (overrides: Partial<RunRecord> = {}): RunRecord =>
  baseRecord({
    sourceId: 'file:/srv/catalog.csv:1234:1715306400000',
    createdAt,
    finishedAt: createdAt + 83_000,
    ...overrides,
  });

/** Counts as the run store's settle script keeps them: by action, by status and by pair. */
const counted = (rows: Array<[action: string, status: string, n: number]>): Record<string, number> => {
  const counts: Record<string, number> = {};
  const add = (name: string, n: number) => {
    counts[name] = (counts[name] ?? 0) + n;
  };
  for (const [action, status, n] of rows) {
    add(`action:${action}`, n);
    add(`status:${status}`, n);
    add(`pair:${action}:${status}`, n);
  }
  return counts;
};

describe('runCounts', () => {
  it('reads each count from the pairs the run store keeps', () => {
    const run = runRecord({
      counts: counted([
        ['create', 'ok', 5],
        ['create', 'failed', 1],
        ['update', 'ok', 3],
        ['update', 'failed', 2],
        ['unchanged', 'ok', 10],
        ['invalid', 'failed', 4],
        ['merged', 'ok', 6],
        ['missing', 'ok', 7],
        ['skipped', 'ok', 8],
        ['skipped', 'failed', 1],
        ['deactivate', 'ok', 6],
      ]),
    });
    run.counts['notes:rows'] = 2;
    run.counts['notes:not-applied'] = 1;
    run.counts['notes:still-off'] = 1;
    // Of the 6 deactivate lines ok, 2 were already so and 1 back in the source: 3 were written.
    run.counts['notes:already-so'] = 2;
    run.counts['notes:back-in-source'] = 1;
    // Of the 7 missing lines, 1 is a second product under a key the source holds.
    run.counts['notes:same-key'] = 1;
    expect(runCounts(run)).toEqual({
      created: 5,
      updated: 3,
      unchanged: 10,
      invalid: 4,
      merged: 6,
      skipped: 8,
      missing: 7,
      sameKey: 1,
      deactivated: 3,
      alreadySo: 2,
      backInSource: 1,
      deactivateFailed: 0,
      deactivateHeld: 0,
      toDeactivate: 0,
      held: 0,
      failed: 4,
      toCreate: 0,
      toUpdate: 0,
      noted: 2,
      notApplied: 1,
      stillOff: 1,
    });
  });

  it('counts planned writes of a dry run apart from done ones', () => {
    const run = runRecord({
      dryRun: true,
      counts: counted([
        ['create', 'planned', 4],
        ['update', 'planned', 2],
      ]),
    });
    expect(runCounts(run)).toMatchObject({ created: 0, updated: 0, toCreate: 4, toUpdate: 2 });
  });

  it('counts rows a guard held apart: nothing was sent for them', () => {
    const run = runRecord({
      counts: counted([
        ['update', 'held', 3],
        ['create', 'held', 1],
        ['update', 'ok', 2],
      ]),
    });
    expect(runCounts(run)).toMatchObject({ updated: 2, created: 0, held: 4, failed: 0 });
  });

  it('counts `--missing` deactivations by status, apart from source rows', () => {
    const run = runRecord({
      counts: {
        'action:deactivate': 6,
        'pair:deactivate:ok': 3,
        'pair:deactivate:failed': 1,
        'pair:deactivate:held': 2,
      },
    });
    expect(runCounts(run)).toMatchObject({
      deactivated: 3,
      deactivateFailed: 1,
      deactivateHeld: 2,
      failed: 0,
      held: 0,
    });
  });

  it('fills in zeros for a run with no rows', () => {
    expect(Object.values(runCounts(runRecord()))).toEqual(Array(21).fill(0));
  });
});

describe('formatDuration', () => {
  it.each<[number, string]>([
    [0, '0 ms'],
    [999, '999 ms'],
    [1000, '1.0 s'],
    [12_345, '12.3 s'],
    [59_949, '59.9 s'],
    [60_000, '1 min 0 s'],
    [83_000, '1 min 23 s'],
    [3_599_000, '59 min 59 s'],
    [3_600_000, '1 h 0 min'],
    [11_520_000, '3 h 12 min'],
    [90_000_000, '25 h 0 min'],
  ])('shows %i ms as "%s"', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });

  // Rounding must come before the split into units, or a reader sees "60.0 s" or "1 min 60 s".
  it.each<[number, string]>([
    [59_960, '1 min 0 s'],
    [119_600, '2 min 0 s'],
    [3_599_700, '1 h 0 min'],
  ])('carries %i ms, which rounds up, into the next unit ("%s")', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('formatSummary', () => {
  describe('when every row of a run settled well', () => {
    const text = summaryOf(
      runRecord({
        total: 20,
        requests: 12,
        writes: 9,
        counts: counted([
          ['create', 'ok', 6],
          ['update', 'ok', 3],
          ['unchanged', 'ok', 11],
        ]),
      }),
    );

    it('says the run is done and how long it took', () => {
      expect(text.split('\n')[0]).toBe('run 20240510T020000-abc123: done in 1 min 23 s');
    });

    it('names the source and its preset', () => {
      expect(text).toContain('  source    catalog.csv (preset generic)\n');
    });

    it('counts the rows by what became of them', () => {
      expect(text).toContain('  rows      20: 6 created, 3 updated, 11 unchanged, 0 invalid, 0 failed\n');
    });

    it('counts the requests and the writes', () => {
      expect(text).toContain('  requests  12 (9 writes)\n');
    });

    it('says the counts are lower bounds after a chunk was taken from a process that stopped mid-chunk', () => {
      const atLeast = summaryOf(runRecord({ total: 20, requests: 12, writes: 1, requestsAtLeast: true }));
      // Killed, or stopped (SIGSTOP, cut off from Redis) past its lock: "died" says only the first.
      expect(atLeast).toContain(
        '  requests  at least 12 (at least 1 write): a process serving the run stopped mid-chunk (it died, or was stopped or cut off past its lock) and its chunk was taken over: the last requests it sent may be missing\n',
      );
    });

    it('neither sends the reader to the report nor lists missing products', () => {
      expect(text).not.toContain('catalog-sync report');
      expect(text).not.toContain('missing');
    });

    it('ends with a newline, and has four lines', () => {
      expect(text.endsWith('\n')).toBe(true);
      expect(text.trimEnd().split('\n')).toHaveLength(4);
    });
  });

  describe('when some rows were invalid or failed', () => {
    it.each<[string, Array<[string, string, number]>]>([
      ['an invalid row', [['invalid', 'failed', 1]]],
      ['a failed create', [['create', 'failed', 1]]],
      ['a failed update', [['update', 'failed', 1]]],
    ])('sends the reader to the report after %s', (_case, rows) => {
      const text = summaryOf(runRecord({ total: 1, counts: counted(rows) }));
      expect(text.trimEnd().split('\n').at(-1)).toBe(
        '  see       catalog-sync report 20240510T020000-abc123',
      );
    });

    it('counts invalid and failed rows apart', () => {
      const text = summaryOf(
        runRecord({
          total: 10,
          counts: counted([
            ['create', 'ok', 5],
            ['create', 'failed', 1],
            ['update', 'failed', 1],
            ['invalid', 'failed', 3],
          ]),
        }),
      );
      expect(text).toContain('  rows      10: 5 created, 0 updated, 0 unchanged, 3 invalid, 2 failed\n');
    });
  });

  describe('when the run is a dry run', () => {
    const text = summaryOf(
      runRecord({
        dryRun: true,
        total: 9,
        requests: 2,
        counts: counted([
          ['create', 'planned', 4],
          ['update', 'planned', 2],
          ['unchanged', 'ok', 3],
        ]),
      }),
    );

    it('says nothing was written', () => {
      expect(text.split('\n')[0]).toBe(
        'run 20240510T020000-abc123 (dry run: nothing written): done in 1 min 23 s',
      );
    });

    it('counts the planned writes as to do, not as done', () => {
      expect(text).toContain('  rows      9: 4 to create, 2 to update, 3 unchanged, 0 invalid, 0 failed\n');
      expect(text).not.toContain('created');
    });
  });

  it('lists remote products the source does not hold', () => {
    const text = summaryOf(runRecord({ counts: counted([['missing', 'ok', 4]]) }));
    expect(text).toContain('  missing   4 remote products are not in the source (listed in the report)\n');
    expect(text).not.toContain('catalog-sync report');
  });

  it('counts apart a second product under a key the source holds: it is not gone from the source', () => {
    const run = runRecord({ counts: counted([['missing', 'ok', 3]]) });
    run.counts['notes:same-key'] = 2;
    const text = summaryOf(run);
    expect(text).toContain('  missing   1 remote product is not in the source (listed in the report)\n');
    expect(text).toContain(
      "  same key  2 remote products have the key of a source row that writes another product: not written (the report's note names it)\n",
    );
  });

  it('says whether an --incremental run read the products, and why --missing was not applied', () => {
    const text = summaryOf(
      runRecord({
        counts: counted([['missing', 'ok', 1]]),
        incrementalRead: 'products read: the last full read matched by sku, this run by name',
        missingNotApplied: '--only update leaves rows out',
      }),
    );

    expect(text).toContain(
      '  incremental products read: the last full read matched by sku, this run by name\n' +
        '  deactivate none: --missing not applied, --only update leaves rows out\n' +
        '  missing   1 remote product is not in the source',
    );
    expect(summaryOf(runRecord())).not.toMatch(/incremental|deactivate/);
  });

  it('puts each count in the number it takes: one row, one write, one product', () => {
    const one = runRecord({ total: 3, requests: 2, writes: 1, counts: counted([['missing', 'ok', 1]]) });
    one.counts['notes:rows'] = 1;
    one.counts['notes:not-applied'] = 1;
    const two = runRecord({ total: 3, requests: 3, writes: 2, counts: counted([['missing', 'ok', 2]]) });
    two.counts['notes:rows'] = 2;
    two.counts['notes:not-applied'] = 2;

    const [single, plural] = [summaryOf(one), summaryOf(two)];

    expect(single).toContain('  notes     1 row carries a note: what the tool did');
    expect(single).toContain('  not applied 1 row: the API accepted the write');
    expect(single).toContain('  missing   1 remote product is not in the source (listed in the report)\n');
    expect(single).toContain('  requests  2 (1 write)\n');
    expect(plural).toContain('  notes     2 rows carry a note: what the tool did');
    expect(plural).toContain('  not applied 2 rows: the API accepted the write');
    expect(plural).toContain('  missing   2 remote products are not in the source (listed in the report)\n');
    expect(plural).toContain('  requests  3 (2 writes)\n');
  });

  it('counts merged rows only when there are some', () => {
    const text = summaryOf(
      runRecord({
        total: 3,
        counts: counted([
          ['merged', 'ok', 2],
          ['create', 'ok', 1],
        ]),
      }),
    );
    expect(text).toContain('0 invalid, 0 failed, 2 merged\n');
  });

  it('counts rows left out on purpose as skipped, apart from rows that failed', () => {
    const text = summaryOf(
      runRecord({
        total: 3,
        counts: counted([
          ['skipped', 'ok', 2],
          ['create', 'ok', 1],
        ]),
      }),
    );
    expect(text).toContain('1 created, 0 updated, 0 unchanged, 0 invalid, 0 failed, 2 skipped\n');
    expect(text).not.toContain('catalog-sync report');
  });

  it('prints what was detected about the source under it', () => {
    const text = summaryOf(runRecord(), ['detected preset shopify', 'encoding windows-1252']);
    const lines = text.split('\n');
    expect(lines.slice(1, 4)).toEqual([
      '  source    catalog.csv (preset generic)',
      '            detected preset shopify',
      '            encoding windows-1252',
    ]);
  });

  it('shows the state of a run that has not finished', () => {
    const text = summaryOf(runRecord({ state: 'running', finishedAt: null }));
    expect(text.split('\n')[0]).toBe('run 20240510T020000-abc123: running');
  });

  it("gives an approved run's approval time, the held run's own beside it, never the night between", () => {
    // Held 555 ms after its start, approved 7 h later, its approval done 1.2 s after that.
    const heldAt = createdAt + 555;
    const approvedAt = createdAt + 7 * 3_600_000;
    const approved = runRecord({ heldAt, approvedAt, finishedAt: approvedAt + 1_200 });
    expect(summaryOf(approved).split('\n')[0]).toBe(
      'run 20240510T020000-abc123: done in 1.2 s by approve (the run was held after 555 ms)',
    );
    // A record without the hold's instant: the approval's time alone.
    expect(summaryOf({ ...approved, heldAt: undefined }).split('\n')[0]).toBe(
      'run 20240510T020000-abc123: done in 1.2 s by approve',
    );
    // One an earlier version approved, its end the hold's still: the run's own time, as then.
    expect(summaryOf({ ...approved, heldAt: undefined, finishedAt: heldAt }).split('\n')[0]).toBe(
      'run 20240510T020000-abc123: done in 555 ms',
    );
  });

  it('times an approval taken over from an earlier, stopped approve from the one that finished it', () => {
    // Held 555 ms after its start; an approve began 7 h later and was stopped; another took it
    // over 16 h later (the next morning) and finished it 1.2 s after.
    const heldAt = createdAt + 555;
    const approvedAt = createdAt + 7 * 3_600_000;
    const approvalResumedAt = approvedAt + 16 * 3_600_000;
    const resumed = runRecord({
      heldAt,
      approvedAt,
      approvalResumedAt,
      finishedAt: approvalResumedAt + 1_200,
    });
    // The earlier approve began on another day (UTC) than the approval ended: dated.
    expect(summaryOf(resumed).split('\n')[0]).toBe(
      'run 20240510T020000-abc123: done in 1.2 s by approve (started by an earlier approve at 2024-05-10 09:00 UTC; the run was held after 555 ms)',
    );
    // Taken over the same day, without the hold's instant.
    const sameDay = { ...resumed, heldAt: undefined, approvalResumedAt: approvedAt + 600_000 };
    expect(summaryOf({ ...sameDay, finishedAt: approvedAt + 601_200 }).split('\n')[0]).toBe(
      'run 20240510T020000-abc123: done in 1.2 s by approve (started by an earlier approve at 09:00 UTC)',
    );
  });
});

describe('pausedMessage', () => {
  const now = Date.parse('2024-05-10T20:48:00Z');

  it.each<[until: string, text: string]>([
    ['2024-05-10T21:00:00Z', 'paused until 21:00 UTC (in 12 min 0 s)'],
    ['2024-05-10T20:48:30Z', 'paused until 20:48 UTC (in 30.0 s)'],
    // Another day (UTC) than now: the date, or a time of day reads as today's.
    ['2024-05-11T00:00:00Z', 'paused until 2024-05-11 00:00 UTC (in 3 h 12 min)'],
    ['2024-05-11T08:30:00Z', 'paused until 2024-05-11 08:30 UTC (in 11 h 42 min)'],
    // A day ahead: without the date, "20:48" would read as now.
    ['2024-05-11T20:48:00Z', 'paused until 2024-05-11 20:48 UTC (in 24 h 0 min)'],
    ['2024-05-13T09:00:00Z', 'paused until 2024-05-13 09:00 UTC (in 60 h 12 min)'],
  ])('until %s reads "%s"', (until, text) => {
    expect(pausedMessage(Date.parse(until), now)).toBe(text);
  });

  it('dates an instant later today when it is more than 12 h away', () => {
    const early = Date.parse('2024-05-10T00:30:00Z');
    expect(pausedMessage(Date.parse('2024-05-10T12:00:00Z'), early)).toBe(
      'paused until 12:00 UTC (in 11 h 30 min)',
    );
    expect(pausedMessage(Date.parse('2024-05-10T23:00:00Z'), early)).toBe(
      'paused until 2024-05-10 23:00 UTC (in 22 h 30 min)',
    );
  });

  it('never counts down below zero once the instant has passed', () => {
    expect(pausedMessage(now - 5000, now)).toBe('paused until 20:47 UTC (in 0 ms)');
  });
});
