import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { requestCounts, usePipeline } from '../support/pipeline.js';

/**
 * A `--dry-run` applies no guard (it holds nothing), but the real run would be held whole by
 * `--max-missing` (20% by default, when not given): the dry run's summary says so, rather than plan
 * `deactivate 1` in silence and leave the real run's exit 5 a surprise.
 */
describe('--missing --dry-run over the --max-missing limit', () => {
  const pipeline = usePipeline();
  const rows = catalogRows(3).map((row, i) => ({ ...row, quantity: String(5 + i) }));

  it.each([
    ['the default', [], '--max-missing 20% (default)', '--max-missing 20% (default)'],
    ['one given', ['--max-missing', '10%'], '--max-missing 10%', '--max-missing'],
  ])('%s: the summary says a run without --dry-run would be held by it', async (_, limit, named, noted) => {
    expect((await pipeline.cli(['run', await pipeline.csv('c3.csv', rows)])).code).toBe(0);
    const two = await pipeline.csv('c2.csv', rows.slice(0, 2));
    const args = ['run', two, '--missing', 'quantity=0', ...limit];

    pipeline.sandbox.resetStats();
    const dry = await pipeline.cli([...args, '--dry-run']);
    expect(dry.code).toBe(0);
    // The guard it does not apply is named on stderr, the default one nobody typed too.
    expect(dry.stderr).toBe(
      `catalog-sync: --dry-run: ${noted} acts on writes and is not applied: a dry run writes nothing and holds nothing\n`,
    );
    expect(requestCounts(pipeline.sandbox.stats())).toMatchObject({ creates: 0, updates: 0 });
    expect(dry.stdout).toContain('  deactivate 1 to deactivate');
    expect(dry.stdout).toContain(
      `  guard     a run without --dry-run would be held (exit 5): 1 of 3 managed products would be deactivated (33.3%), more than ${named}`,
    );

    const real = await pipeline.cli(args);
    expect(real.code).toBe(5);
  });

  it('within the limit: nothing said of it', async () => {
    expect((await pipeline.cli(['run', await pipeline.csv('c3.csv', rows)])).code).toBe(0);
    const two = await pipeline.csv('c2.csv', rows.slice(0, 2));
    const dry = await pipeline.cli([
      'run',
      two,
      '--missing',
      'quantity=0',
      '--max-missing',
      '50%',
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('  deactivate 1 to deactivate');
    expect(dry.stdout).not.toContain('would be held');
  });
});
