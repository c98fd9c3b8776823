import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { usePipeline } from '../support/pipeline.js';

const WRONG = 'sk_test_WRONG';

/**
 * A `run` whose in-process workers meet a key the API rejected speaks of itself: there is no worker
 * to restart, and its exit-3 line says what to do.
 */
describe('a rejected key met by the workers of `run`', () => {
  const pipeline = usePipeline();

  it('is told as this `run` sending nothing with it, not as a worker to restart', async () => {
    const source = await pipeline.csv('catalog.csv', catalogRows(3));
    const rejected = await pipeline.cli(['run', source], { SELLER_API_KEY: WRONG });
    expect(rejected.code, rejected.stderr).toBe(3);

    // The seller is paused and the key listed as rejected: the dry run's own queue is served, and
    // its worker finds no key it may send with.
    const dry = await pipeline.cli(['run', source, '--dry-run'], {
      SELLER_API_KEY: WRONG,
      LOG_LEVEL: 'error',
    });

    expect(dry.code, dry.stderr).toBe(3);
    expect(dry.stderr).toMatch(
      /run \d{8}T\d{6}-[0-9a-f]+: the key in \$SELLER_API_KEY was rejected \(401\) for seller [0-9a-f]+: this `run` sends nothing with it"/,
    );
    expect(dry.stderr).not.toContain('worker');
    expect(dry.stderr).not.toContain(WRONG);
  });
});
