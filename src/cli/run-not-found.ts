import { join } from 'node:path';
import { DEFAULT_PREFIX } from '../defaults.js';
import { displayRedisUrl } from '../redis/connect.js';

/** The Redis and prefix a command read its runs from (runtime.ts's config). */
interface RunsPlace {
  redisUrl: string;
  prefix: string;
}

/**
 * Where runs were looked for: the Redis (password masked) and the prefix. A run made with another
 * REDIS_URL or CATALOG_SYNC_PREFIX is "not found" here, and that is the cause. The default prefix is
 * named too: a mistyped variable (`CATALOG_SYNC_PREFX=staging`) leaves it, and the line said none.
 */
export function runsPlace(place: RunsPlace): string {
  const theDefault = place.prefix === DEFAULT_PREFIX ? ' (the default)' : '';
  return `Redis at ${displayRedisUrl(place.redisUrl)} under CATALOG_SYNC_PREFIX=${place.prefix}${theDefault}`;
}

/** status, report, cancel, approve, revert of an id this Redis does not hold. */
export function noRunLine(runId: string, place: RunsPlace): string {
  return `no run ${runId} in ${runsPlace(place)} (runs are kept 7 days)`;
}

/** `status` with no run at all: a command that works as typed (`run` alone wants a source). */
export function noRunYetLine(place: RunsPlace, root: string): string {
  return (
    `no run yet in ${runsPlace(place)}: start one with \`catalog-sync run products.csv\` (your file), ` +
    `or rehearse with \`catalog-sync run ${join(root, 'fixtures', 'catalog.csv')} --sandbox\``
  );
}
