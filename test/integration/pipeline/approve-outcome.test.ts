import { describe, expect, it } from 'vitest';
import { catalogRows } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';

describe('approve: how it ends', () => {
  const pipeline = usePipeline();

  it('exits 1, as `run` would, when the approved run ends with invalid rows', async () => {
    const rows = catalogRows(7).map((row, i) => (i % 2 === 1 ? { ...row, price: 'abc' } : row));
    const source = await pipeline.csv('bad.csv', rows);
    const held = await pipeline.cli(['run', source, '--max-invalid', '1']);
    expect(held.code).toBe(5);

    const approved = await pipeline.cli(['approve', runIdOf(held.stdout)]);

    expect(approved.stdout).toMatch(/^run \S+: done in /m);
    expect(approved.stdout).toContain('rows      7: 4 created, 0 updated, 0 unchanged, 3 invalid, 0 failed');
    expect(approved.code).toBe(1);
    // The same counts from `run` itself: exit 1.
    expect((await pipeline.cli(['run', source])).code).toBe(1);
  });
});
