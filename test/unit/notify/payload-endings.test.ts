import { describe, expect, it } from 'vitest';
import { CatalogConfigError } from '../../../src/catalog/errors.js';
import { notifyBody } from '../../../src/notify/payload.js';
import { endedEarlyReason } from '../../../src/queue/ended-early.js';
import { RunInterruptedError } from '../../../src/queue/producer-stops.js';
import { SourceError } from '../../../src/sources/index.js';
import { runRecord } from '../../support/run-record.js';

describe('the `ended` payload of a run that did not end whole', () => {
  const base = { id: '20261122T210000-abcdef', sellerRef: 'abcdef0123456789', total: 40, settled: 40 };

  it('a done run reads as before, with notTried 0 and no skipped part', () => {
    const body = notifyBody('ended', runRecord({ ...base, counts: { 'pair:create:ok': 40 } }));
    expect(body).toMatchObject({ state: 'done', counts: { created: 40, skipped: 0, notTried: 0 } });
    expect(body).not.toHaveProperty('endedEarly');
    expect(body).not.toHaveProperty('supersededBy');
    expect(body.text).toBe(
      'catalog-sync run 20261122T210000-abcdef done: 40 created, 0 updated, 0 failed (seller abcdef0123456789)',
    );
  });

  it('a run ended early with no reason on record says the source was not read to the end', () => {
    const run = runRecord({ ...base, aborted: true, settled: 10, counts: { 'pair:update:ok': 10 } });
    const body = notifyBody('ended', run);
    expect(body).toMatchObject({ state: 'ended-early', endedEarly: 'the source was not read to the end' });
    expect(body.text).toBe(
      'catalog-sync run 20261122T210000-abcdef ended early (the source was not read to the end): 0 created, 10 updated, 0 failed, 30 not tried (seller abcdef0123456789)',
    );
  });

  it('a run its read of the products refused says refused and why, not done', () => {
    const line = '--missing: stock: no product has it; the stock field is quantity';
    const run = runRecord({ ...base, fieldsRefused: line, counts: { 'status:failed': 40 } });
    const body = notifyBody('ended', run);
    expect(body).toMatchObject({ state: 'refused', refused: line, counts: { failed: 40 } });
    expect(body.text).toBe(
      `catalog-sync run 20261122T210000-abcdef refused (${line}): 0 created, 0 updated, 40 failed (seller abcdef0123456789)`,
    );
  });

  it('a cancelled dry run says cancelled, not planned', () => {
    const run = runRecord({ ...base, dryRun: true, state: 'cancelled', counts: { 'pair:skipped:ok': 40 } });
    expect(notifyBody('ended', run).text).toBe(
      'catalog-sync run 20261122T210000-abcdef cancelled: 0 to create, 0 to update, 0 failed, 40 skipped (seller abcdef0123456789)',
    );
  });
});

describe('why a run ended early, as its record keeps it', () => {
  it("is a source's own one-line message", () => {
    expect(endedEarlyReason(new SourceError('feed.csv: line 3 has an unclosed quote'))).toBe(
      'feed.csv: line 3 has an unclosed quote',
    );
    expect(endedEarlyReason(new CatalogConfigError('--preset: unknown preset "x"'))).toBe(
      '--preset: unknown preset "x"',
    );
    expect(endedEarlyReason(new RunInterruptedError())).toBe(
      'interrupted before the source was read to the end',
    );
  });

  it('is only the kind of any other error, whose message may quote anything (a URL with its token)', () => {
    const reset = Object.assign(new Error('read ECONNRESET https://feed.example/x?token=s3cret'), {
      code: 'ECONNRESET',
    });
    expect(endedEarlyReason(reset)).toBe('the source could not be read to the end (ECONNRESET)');
    expect(endedEarlyReason(new Error('https://feed.example/x?token=s3cret'))).toBe(
      'the source could not be read to the end',
    );
  });

  it('stays on one line, its control characters shown', () => {
    expect(endedEarlyReason(new SourceError('feed.csv: bad\nline \x1b[2J'))).toBe(
      'feed.csv: bad\\x0aline \\x1b[2J',
    );
  });
});
