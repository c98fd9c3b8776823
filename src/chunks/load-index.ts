import type { Redis } from 'ioredis';
import { indexLoadOf, readApprovedById, readApprovedProducts } from '../guards/approval-read.js';
import type { Logger } from '../logger.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunStore } from '../runs/run-store.js';
import type { SellerApiClient } from '../seller-api/index.js';
import { mayRelyOnRecord, noteFullRead, noteVerdict, voidRecordOfOtherField } from '../sync/incremental.js';
import { notingFieldNames, refuseUnlistedNames } from '../sync/listed-fields.js';
import { listedKeyFields } from '../sync/listed-keys.js';
import type { RemoteIndex } from '../sync/remote-index.js';
import { keepUnrecordedNames } from '../sync/unrecorded-names.js';

interface LoadDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
  now: () => number;
  logger: Logger;
}

/**
 * The run's one look at the seller's products, before its first write (snapshot.ts calls it once,
 * under the run's lock): every page into the run's index, or, for an `--incremental` run whose
 * record is complete and fresh for its match field, none (incremental.ts). Its verdict is kept on
 * the run (the summary's `incremental` line). An approval re-checks against the products as they
 * are then, never against the record alone: of a run that read none, only its held products
 * (guards/approval-read.ts).
 */
export async function loadRunIndex(
  deps: LoadDeps,
  run: RunRecord,
  index: RemoteIndex,
  client: SellerApiClient,
  /** The products recorded for the run's match field: whether reading by id costs less. */
  recordSize: () => Promise<number>,
): Promise<void> {
  const { redis, keys } = deps;
  const load = await indexLoadOf(redis, keys, run.id);
  if (load === 'approval-unread') {
    const read = await readApprovedProducts(deps, run, client, (pages) => index.load(pages), recordSize);
    const how = read.byId ? 'by id' : 'from the list';
    return deps.logger.info(`approve: the ${read.ids} held products read again ${how}`);
  }
  // Field names the tool does not know are accepted only when a listed product shows them.
  const toConfirm = (run.unknownFields ?? []).length > 0;
  // The run's own rows may rely on the record; an approval reads every product (its verdict stays the run's).
  if (load === 'run') {
    const verdict = await mayRelyOnRecord(redis, keys, run, deps.now(), toConfirm);
    await noteVerdict(redis, keys, run.id, verdict);
    if (verdict.line !== null) deps.logger.info(`incremental: ${verdict.line}`);
    if (verdict.rely) return;
  }
  await voidRecordOfOtherField(redis, keys, run, deps.now());
  // An approval reads its held products by id when that costs less than the list (approval-read.ts).
  if (load === 'approval' && !toConfirm) {
    const read = await readApprovedById(deps, run, client, (pages) => index.load(pages));
    if (read) return deps.logger.info(`approve: the ${read.ids} held products read again by id`);
  }
  const startedAt = deps.now();
  const listed = new Set<string>();
  const unkeyed = await index.load(
    notingFieldNames(client.listProducts(), listed),
    run.incremental === true && !run.dryRun,
    // The run's own read: what a create of another field's run must not repeat (listed-keys.ts).
    load === 'run' ? listedKeyFields(run) : [],
  );
  // The run's own read (an approval's creates nothing it was not approved to): products without a
  // SKU the tool has no record of, which a row with a derived key may stand for.
  if (load === 'run') await keepUnrecordedNames(redis, keys, run, unkeyed);
  // Any run's: an --incremental run's read becomes the record, another's tells which record it is newer than.
  await noteFullRead(redis, keys, run.id, startedAt);
  if (toConfirm) await refuseUnlistedNames(redis, keys, run, listed);
}
