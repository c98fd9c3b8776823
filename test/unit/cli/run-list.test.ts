import { describe, expect, it } from 'vitest';
import { type ListedRun, listedRunLine } from '../../../src/cli/run-list.js';

const listed = (over: Partial<ListedRun>): ListedRun => ({
  id: '20261127T020001-4bab7f',
  createdAt: 0,
  state: 'done',
  stateText: 'done',
  readerStopped: false,
  sellerRef: '52f579d4eef6075c',
  sellerName: 'shop-a',
  source: 'nightly.csv',
  dryRun: false,
  outcome: '3 created, 0 updated',
  counts: {} as ListedRun['counts'],
  ...over,
});

describe('listedRunLine', () => {
  it('is one line per run, whatever the record in Redis holds', () => {
    const line = listedRunLine(listed({ source: '/evil\r\nFAKE LINE', sellerName: 'x\ny' }));
    expect(line.split('\n')).toHaveLength(1);
    expect(line).toContain('/evil\\x0d\\x0aFAKE LINE');
    expect(line).toContain('seller x\\x0ay (52f579d4eef6075c)');
  });

  it('says the run, its state, its seller, its source and its outcome', () => {
    expect(listedRunLine(listed({ dryRun: true }))).toBe(
      '20261127T020001-4bab7f  done (dry run)  seller shop-a (52f579d4eef6075c)  nightly.csv  3 created, 0 updated',
    );
  });
});
