import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

/** The `msg` of each JSON log line. */
function messages(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));
}

describe('a run queued while no worker runs, then a `run` of another file of the seller', () => {
  const pipeline = usePipeline({ latencyMs: 5 });

  it('status says what takes the queued run up; the `run` logs its wait once, as it begins', {
    timeout: 60_000,
  }, async () => {
    const imported = await pipeline.cli(['import', await pipeline.csv('export-0100.csv', catalogRows(30))]);
    expect(imported.code, imported.stderr).toBe(0);
    const queued = runIdOf(imported.stdout);
    const status = await pipeline.cli(['status', queued]);
    expect(status.stdout).toMatch(
      /\n {2}waiting {3}no running worker holds seller [^\n]*; or the next `catalog-sync run` of its source takes it up \(of a changed file or feed: supersedes it\)\n/,
    );

    const rows = catalogRows(30).map((row) => ({ ...row, price: (Number(row.price) + 1).toFixed(2) }));
    const later = await pipeline.cli(['run', await pipeline.csv('export-0200.csv', rows)], {
      LOG_LEVEL: 'info',
    });

    expect(later.code, later.stderr).toBe(0);
    const laterRun = runIdOf(later.stdout);
    const said = messages(later.stderr);
    const wait = `run ${laterRun} waits for run ${queued} of the same seller to end`;
    expect(said.filter((msg) => msg === wait)).toHaveLength(1);
    // Said as the wait begins, before its source is read (and the earlier run's rows written here).
    expect(said.indexOf(wait)).toBeLessThan(said.indexOf('run queued'));
  });
});
