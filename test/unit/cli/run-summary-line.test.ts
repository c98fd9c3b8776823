import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { logRunSummary } from '../../../src/cli/run-summary-line.js';
import { createLogger } from '../../../src/logger.js';
import { runRecord } from '../../support/run-record.js';

/** The `run summary` line logged for `run`, as JSON (stderr not a terminal). */
function summaryOf(run: ReturnType<typeof runRecord>): Record<string, unknown> {
  const stream = new PassThrough();
  let written = '';
  stream.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
  });
  logRunSummary(stream, createLogger('info', stream, 'json'), run, 'done', 1);
  stream.end();
  return JSON.parse(written.trim()) as Record<string, unknown>;
}

describe('the `run summary` log line', () => {
  it('says `ended-early` of a run ended before its source was read to the end, as `status` does', () => {
    const run = runRecord({ state: 'done', aborted: true, endedEarly: 'the feed broke' });

    expect(summaryOf(run)).toMatchObject({ msg: 'run summary', state: 'ended-early' });
  });

  it('says `refused` and why of a run its read of the products refused, as `status` does', () => {
    const line = '--missing: stock: no product has it; the stock field is quantity';
    const run = runRecord({ state: 'done', fieldsRefused: line });

    expect(summaryOf(run)).toMatchObject({ msg: 'run summary', state: 'refused', refused: line });
  });

  it("says the record's state of any other run", () => {
    expect(summaryOf(runRecord({ state: 'done' }))).toMatchObject({ state: 'done' });
  });
});
