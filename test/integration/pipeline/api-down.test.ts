import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogRows, parseCsv } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';

/** Far longer than the bounded retries take; only there so that a run that never ends fails the test. */
const GUARD_MS = 50_000;

describe('when the API answers 500 to every request, the list of products included', () => {
  const pipeline = usePipeline({ failRate: 1 });

  it('`run` still ends, after bounded retries, with exit 1 and every row failed with the reason', {
    timeout: GUARD_MS + 10_000,
  }, async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    const report = join(pipeline.dir, 'report.csv');
    const run = pipeline.spawn(['run', source, '--report', report], { CATALOG_SYNC_RETRIES: '1' });

    const ended = await Promise.race([
      run.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), GUARD_MS)),
    ]);

    expect(
      ended,
      `run never ended; the sandbox saw ${JSON.stringify(pipeline.sandbox.stats().byRoute)}`,
    ).toEqual({
      code: 1,
      signal: null,
    });
    expect(run.stdout()).toContain('rows      3: 0 created, 0 updated, 0 unchanged, 0 invalid, 3 failed');
    const lines = parseCsv(await pipeline.readText('report.csv'));
    expect(lines.map((line) => line.status)).toEqual(['failed', 'failed', 'failed']);
    expect(lines.every((line) => /500|server error/i.test(line.error ?? ''))).toBe(true);
    expect(pipeline.products()).toEqual([]);
  });
});
