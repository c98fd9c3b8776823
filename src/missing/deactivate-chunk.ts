import type { Redis } from 'ioredis';
import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import type { DeactivateItem } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunStore } from '../runs/run-store.js';
import type { SettleFence } from '../runs/settle-fence.js';
import type { IndexedProduct } from '../sync/diff.js';
import { failsForGood, pauseOf, reasonOf } from '../sync/error-policy.js';
import { decodeEntry } from '../sync/index-entry.js';
import type { RowSyncContext } from '../sync/row-sync-context.js';
import { writeUpdate } from '../sync/write-update.js';
import { DeactivatedStore } from './deactivated-store.js';
import { DeactivationClaims } from './deactivation-claims.js';
import { deactivateLine } from './deactivations.js';
import {
  alreadySo,
  formerValues,
  type MissingValues,
  notGivenBackNote,
  setValues,
} from './missing-values.js';

interface DeactivateDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/**
 * A `deactivate` job: one PUT of the `--missing` fields per product still due, through the same
 * client, limiter, retries and pauses as the rows' writes. The values the fields showed are recorded
 * first (given back when the product returns), and what the PUT replaced is kept for `revert`.
 * Only the products this job claims (`holder`, its id) are sent: one that another live job holds is
 * that job's to send and settle (deactivation-claims.ts).
 * Rejects with a pause (429, 401, budget): the lines not settled stay due and the job comes back.
 * The job's lines settle only while no other attempt at it holds its lock (`fence`): the claims are
 * the job's, whichever attempt runs it (runs/settle-fence.ts).
 */
export async function deactivateChunk(
  deps: DeactivateDeps,
  context: RowSyncContext & { run: { sellerRef: string } },
  missing: MissingValues,
  items: DeactivateItem[],
  holder: string,
  fence?: SettleFence,
): Promise<void> {
  if (items.length === 0) return;
  const claims = new DeactivationClaims(deps.redis, deps.keys, context.claims.claimMs);
  await claims.whileHeld(
    context.runId,
    holder,
    items.map((item) => item.id),
    (held) =>
      sendClaimed(
        deps,
        context,
        missing,
        items.filter((_, i) => held[i] === 'ours'),
        fence,
      ),
  );
}

async function sendClaimed(
  deps: DeactivateDeps,
  context: RowSyncContext & { run: { sellerRef: string } },
  missing: MissingValues,
  items: DeactivateItem[],
  fence: SettleFence | undefined,
): Promise<void> {
  const { redis, keys, runs } = deps;
  const runId = context.runId;
  if (items.length === 0) return;
  const [listed, known] = await Promise.all([
    redis.hmget(keys.products(runId), ...items.map((item) => item.id)),
    context.idMap.getMany(items.map((item) => item.key)),
  ]);
  const store = new DeactivatedStore(redis, keys, context.run.sellerRef);
  const settle = (line: RowOutcome) => runs.addMissing(runId, [line], true, fence);
  const results = await Promise.allSettled(
    items.map(async (item, i) => {
      const json = listed[i];
      const remote: IndexedProduct = json ? decodeEntry(item.id, json) : { id: item.id, values: {} };
      // A job tried again after its PUT went through: the index shows what the PUT left.
      if (alreadySo(remote.values, missing)) return settle(deactivateLine(item, 'ok', '', 'already so'));
      const recorded = await store.record({
        id: item.id,
        former: formerValues(remote.values, missing),
        at: new Date().toISOString().slice(0, 10),
        set: setValues(missing),
      });
      const lost = notGivenBackNote(recorded);
      const upsert: ProductUpsert = { kind: 'upsert', row: 0, line: 0, key: item.key, fields: missing };
      try {
        const result = await writeUpdate(context, upsert, remote, missing, known.get(item.key), true);
        if (result === 'gone') return settle(deactivateLine(item, 'failed', 'the product is gone (404)'));
        if ('failed' in result) return settle(deactivateLine(item, 'failed', result.failed));
        return settle(deactivateLine(item, 'ok', '', [...result.notes, ...lost].join('; ')));
      } catch (error) {
        if (pauseOf(error) !== null || !failsForGood(error)) throw error;
        return settle(deactivateLine(item, 'failed', reasonOf(error)));
      }
    }),
  );
  const reasons = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (reasons.length > 0) throw reasons.find((reason) => pauseOf(reason) !== null) ?? reasons[0];
}
