import { describe, expect, it } from 'vitest';
import { noRunLine, noRunYetLine } from '../../../src/cli/run-not-found.js';

/** Where a run was looked for: a newcomer with two Redis (or a prefix) must see which was asked. */
describe('the line for a run not found', () => {
  const local = { redisUrl: 'redis://:s3cret@127.0.0.1:6379', prefix: 'catalog-sync' };

  it('names the Redis, its password masked, and the prefix, the default too (a mistyped variable leaves it)', () => {
    expect(noRunLine('20260101T000000-abcdef', local)).toBe(
      'no run 20260101T000000-abcdef in Redis at redis://:***@127.0.0.1:6379 under CATALOG_SYNC_PREFIX=catalog-sync (the default) (runs are kept 7 days)',
    );
    expect(noRunLine('x', { ...local, prefix: 'staging' })).toBe(
      'no run x in Redis at redis://:***@127.0.0.1:6379 under CATALOG_SYNC_PREFIX=staging (runs are kept 7 days)',
    );
  });

  it('with no run at all, gives a command that runs as typed', () => {
    expect(noRunYetLine(local, '/srv/catalog-sync')).toBe(
      'no run yet in Redis at redis://:***@127.0.0.1:6379 under CATALOG_SYNC_PREFIX=catalog-sync (the default): start one with `catalog-sync run products.csv` (your file), ' +
        'or rehearse with `catalog-sync run /srv/catalog-sync/fixtures/catalog.csv --sandbox`',
    );
  });
});
