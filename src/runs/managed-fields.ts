import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import type { RunRecord } from './run-record.js';

/**
 * The product fields this tool has sent for a seller, so that a run whose source no longer has one
 * (a feed that lost its `price` column) says so in one line: such a field is left as it is on the
 * marketplace, which is right for a column dropped on purpose and a surprise for one dropped by
 * mistake. Kept without expiry, like the id map: a few field names per seller.
 *
 * Read as a run starts (fieldsNoLongerInSource), added to as a run ends having written or found
 * rows unchanged (recordFieldsSent): a run a guard held, a dry run, a run cancelled before it wrote
 * sent nothing, and naming their fields "sent by earlier runs" would name fields no run ever sent.
 */
export async function fieldsNoLongerInSource(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  fields: readonly string[],
): Promise<string[]> {
  const before = await redis.smembers(keys.fieldsSent(sellerRef));
  const now = new Set(fields);
  return before.filter((field) => !now.has(field)).sort();
}

/**
 * Called at a run's end and at an approval round's end: once some row of the run was created or
 * updated (the API took the write), or found unchanged (the marketplace already holds the source's
 * values: a migration, a products export sent back), its source's fields are on the marketplace as
 * the source has them. Deactivations alone do not count: they send the `--missing` values, not the
 * source's columns. Safe to call again (a set).
 */
export async function recordFieldsSent(redis: Redis, keys: RedisKeys, run: RunRecord): Promise<void> {
  if (run.dryRun || !run.sentFields || run.sentFields.length === 0) return;
  const inLine = ['pair:create:ok', 'pair:update:ok', 'action:unchanged'].reduce(
    (sum, count) => sum + (run.counts[count] ?? 0),
    0,
  );
  if (inLine === 0) return;
  await redis.sadd(keys.fieldsSent(run.sellerRef), ...run.sentFields);
}

/** The summary's line for those fields; undefined when there are none. */
export function absentFieldsLine(fields: readonly string[] | undefined): string | undefined {
  if (!fields || fields.length === 0) return undefined;
  const names = fields.join(', ');
  return `  absent    ${names}: sent by earlier runs, not in this source (left as they are on the marketplace)`;
}
