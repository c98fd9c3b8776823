import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-store.js';
import { claimExpiresAt } from '../sync/create-claims.js';
import { matchSpaceOf } from '../sync/match-space.js';

// A create claims its match key before its POST (sync/create-claims.ts: `run|token|expiresAt`),
// renews the claim while the POST is under way, and releases it as it records the product. A chunk
// whose job Redis lost may have a create under way on a worker still alive (its job vanished under
// it), or had one when its worker died: the look at an idle run (lost-chunks.ts) reads the run's
// claims, since the lost rows' keys went with their job. A live one puts the look off (its worker
// settles its row: "not sent" would be wrong once its POST goes); one no longer renewed may have
// been sent, and the lost rows say so. A re-run creates no duplicate of it: a claim not renewed is
// taken over only after a look-up of the product (claim-ops.ts), and its list read shows it.

/** The run's create claims: whether one is live, and the keys of those no longer renewed. */
export interface RunCreates {
  live: boolean;
  stale: string[];
}

const NONE: RunCreates = { live: false, stale: [] };

export async function createsOfRun(
  redis: Redis,
  keys: RedisKeys,
  run: RunRecord,
  now = Date.now(),
): Promise<RunCreates> {
  // A dry run sends nothing, and claims nothing.
  if (run.dryRun) return NONE;
  const space = await matchSpaceOf(redis, keys, run.sellerRef, run.matchBy, run.id);
  const mine = `${run.id}|`;
  const found: RunCreates = { live: false, stale: [] };
  let cursor = '0';
  do {
    const [next, flat] = await redis.hscan(keys.pendingCreates(run.sellerRef, space), cursor, 'COUNT', 500);
    cursor = next;
    for (let i = 0; i + 1 < flat.length; i += 2) {
      const [key, value] = [flat[i] as string, flat[i + 1] as string];
      if (!value.startsWith(mine)) continue;
      if (claimExpiresAt(value) > now) found.live = true;
      else found.stale.push(key);
    }
  } while (cursor !== '0');
  return found;
}

/** How many keys the reason names; the others are counted. */
const KEYS_NAMED = 3;

/**
 * What the lost rows are reported with when the run had creates under way no longer renewed: one of
 * them may be such a create, and may have been sent. `sku SKU-3`, `skus SKU-3, SKU-9 and 2 more`.
 */
export function maybeSentReason(matchBy: string, stale: readonly string[]): string {
  const named = stale.slice(0, KEYS_NAMED).map((key) => JSON.stringify(key));
  if (stale.length > named.length) named.push(`${stale.length - named.length} more`);
  const last = named.pop() ?? '';
  const list = named.length > 0 ? `${named.join(', ')} and ${last}` : last;
  const which =
    stale.length === 1 ? `${matchBy} ${list}, whose create` : `${matchBy}s ${list}, whose creates`;
  return (
    `not sent, unless it is the row of ${which} ${stale.length === 1 ? 'was' : 'were'} under way when its chunk was lost from Redis ` +
    `(a failover or a flush dropped its job): that may have been sent; a re-run of the source sends what did not go, ` +
    'and looks those keys up before creating them'
  );
}
