import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';

/**
 * The product fields this tool has sent for a seller, so that a run whose source no longer has one
 * (a feed that lost its `price` column) says so in one line: such a field is left as it is on the
 * marketplace, which is right for a column dropped on purpose and a surprise for one dropped by
 * mistake. Kept without expiry, like the id map: a few field names per seller.
 */
export async function fieldsNoLongerInSource(
  redis: Redis,
  keys: RedisKeys,
  sellerRef: string,
  fields: readonly string[],
  options: { dryRun: boolean },
): Promise<string[]> {
  const key = keys.fieldsSent(sellerRef);
  const before = await redis.smembers(key);
  if (!options.dryRun && fields.length > 0) await redis.sadd(key, ...fields);
  const now = new Set(fields);
  return before.filter((field) => !now.has(field)).sort();
}

/** The summary's line for those fields; undefined when there are none. */
export function absentFieldsLine(fields: readonly string[] | undefined): string | undefined {
  if (!fields || fields.length === 0) return undefined;
  const names = fields.join(', ');
  return `  absent    ${names}: sent by earlier runs, not in this source (left as they are on the marketplace)`;
}
