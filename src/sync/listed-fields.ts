import type { Redis } from 'ioredis';
import { type NamedField, TOOL_FIELDS, unknownFieldLine } from '../catalog/field-names.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord } from '../runs/run-record.js';
import type { RemoteProduct } from '../seller-api/index.js';
import { SNAPSHOT_FAILED, SnapshotError } from './snapshot.js';

/** The run-record field that holds the line refusing a field name no listed product shows. */
export const FIELDS_REFUSED = 'fieldsRefused';

/** Passes the list's pages on unchanged, adding to `names` every field a listed product shows. */
export async function* notingFieldNames(
  pages: AsyncIterable<RemoteProduct[]>,
  names: Set<string>,
): AsyncGenerator<RemoteProduct[]> {
  for await (const page of pages) {
    for (const product of page) for (const name of Object.keys(product.fields)) names.add(name);
    yield page;
  }
}

/**
 * A field name the tool does not know is accepted when the seller's products show it (a field of
 * the marketplace's own). Called by the one reader of the list, before any chunk of the run writes:
 * a name none shows refuses the whole run (every chunk then settles its rows unsent, and `run` says
 * the line with exit 2); nothing of the run is written.
 * It needs the whole list, read before the refusal: the Seller API's spec lists a product's fields
 * as illustrative, no fixed contract, so no name (not even another platform's `stock`) can be ruled
 * out before the seller's products are read; and only the last page can say that none shows it.
 */
export async function refuseUnlistedNames(
  redis: Redis,
  keys: RedisKeys,
  run: Pick<RunRecord, 'id' | 'unknownFields' | 'sentFields'>,
  listed: ReadonlySet<string>,
): Promise<void> {
  const refused = (run.unknownFields ?? []).find((named: NamedField) => !listed.has(named.name));
  if (!refused) return;
  const known = [...new Set([...TOOL_FIELDS, ...(run.sentFields ?? []), ...[...listed].sort()])];
  const line = unknownFieldLine(refused, known, 'no product has it');
  await redis
    .multi()
    .hset(keys.run(run.id), FIELDS_REFUSED, line)
    .hsetnx(keys.run(run.id), SNAPSHOT_FAILED, line)
    .exec();
  throw new SnapshotError(line);
}
