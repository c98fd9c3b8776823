import type { Redis } from 'ioredis';
import type { ProductUpsert } from '../interfaces.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunSpec } from '../runs/run-record.js';
import { listedKeyFields, listedKeyOf, listedValue } from '../sync/listed-keys.js';

/*
 * A run matched by another field than sku creates a row's product when no listed product has the
 * row's value of that field. A listed product that has the row's SKU (made by a run matched by sku,
 * before the source gave the field), or the row's value under the match column's own name (`ean`,
 * kept as a text field by an older run, where this one reads the column as barcode), is most likely
 * that row's product: creating it makes the product a second time, the same SKU on both. The run is
 * held as lookalike-creates.ts holds it: exit 5, nothing sent until `approve`.
 */

/** A create of such a run whose value a listed product has (sync/listed-keys.ts). */
export interface ListedKeyCreate {
  row: number;
  /** The row's key: its value of the field the run matches by. */
  key: string;
  matchBy: string;
  /** The listed product that has it. */
  productId: string;
  /** The product's field that has the row's value: `sku`, or the match column's own name. */
  field: string;
  value: string;
}

/**
 * The creates among `creates` whose SKU, or key under the match column's own names, a listed
 * product has: one HMGET for the chunk. None asked of a run matched by sku (no field to ask).
 */
export async function listedKeyCreates(
  deps: { redis: Redis; keys: RedisKeys },
  run: Pick<RunSpec, 'matchBy' | 'sentFields' | 'matchColumnNames'> & { id: string },
  creates: readonly ProductUpsert[],
): Promise<ListedKeyCreate[]> {
  const fields = listedKeyFields(run);
  const asked: { row: ProductUpsert; field: string; value: string }[] = [];
  for (const row of creates)
    for (const field of fields) {
      const value = field === 'sku' ? listedValue(row.fields.sku) : row.key;
      if (value !== null && value !== '') asked.push({ row, field, value });
    }
  if (asked.length === 0) return [];
  const ids = await deps.redis.hmget(
    deps.keys.listedKeys(run.id),
    ...asked.map(({ field, value }) => listedKeyOf(field, value)),
  );
  const found = new Map<number, ListedKeyCreate>();
  asked.forEach(({ row, field, value }, i) => {
    const productId = ids[i];
    if (!productId || found.has(row.row)) return;
    found.set(row.row, { row: row.row, key: row.key, matchBy: run.matchBy, productId, field, value });
  });
  return [...found.values()];
}

/** How many rows the reason names; the rest are counted. */
const NAMED = 3;

/**
 * Why the run is held for them, or null for none: `row 1 (barcode 4006381333931) would create a
 * product, but product 17 has its sku V1: creating it may duplicate that product (approve creates
 * it anyway)`.
 */
export function listedKeyText(creates: readonly ListedKeyCreate[]): string | null {
  const [first] = creates;
  if (first === undefined) return null;
  const keyed = (create: ListedKeyCreate) => `${create.matchBy} ${create.key}`;
  const has = (create: ListedKeyCreate) =>
    `product ${create.productId} has its ${create.field} ${create.value}`;
  if (creates.length === 1)
    return (
      `row ${first.row} (${keyed(first)}) would create a product, but ${has(first)}: ` +
      'creating it may duplicate that product (approve creates it anyway)'
    );
  const shown = creates.slice(0, NAMED).map((create) => `${create.row} (${keyed(create)}; ${has(create)})`);
  const more = creates.length - shown.length;
  const all = more > 0 ? [...shown, `${more} more`] : shown;
  const last = all.pop();
  return (
    `rows ${all.join(', ')} and ${last} would create products: ` +
    'creating them may duplicate those products (approve creates them anyway)'
  );
}
