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
 *
 * A value under the match column's own name is what an earlier version's `--match-by ean` made: it
 * read the column as that text field, where every run now reads it as barcode. Such a seller's
 * nightly cron is held every night, and `approve` makes the whole catalog a second time; so the
 * reason says so and gives the mapping file that reads the column as the text field again.
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
  /**
   * The match column as the source's header writes it (`EAN`), where `field` is its own name; absent
   * for `sku` (and in a run held before it was kept: then `field` stands for it).
   */
  column?: string;
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
    const create: ListedKeyCreate = {
      row: row.row,
      key: row.key,
      matchBy: run.matchBy,
      productId,
      field,
      value,
    };
    const column = field === 'sku' ? undefined : columnOf(field, run.matchColumnNames ?? []);
    if (column !== undefined) create.column = column;
    found.set(row.row, create);
  });
  return [...found.values()];
}

/** The column as written of a field under its own name: names list it first, then in lower case. */
function columnOf(field: string, names: readonly string[]): string | undefined {
  return names.find((name) => name.toLowerCase() === field.toLowerCase());
}

/** How many rows the reason names; the rest are counted. */
const NAMED = 3;

/**
 * Why the run is held for them, or null for none: `row 1 (barcode 4006381333931) would create a
 * product, but product 17 has its sku V1: creating it may duplicate that product (approve creates
 * it anyway)`. Creates held for a value under the match column's own name are said apart, one
 * reason per field, with the mapping file that matches by it (ownNameText).
 */
export function listedKeyText(creates: readonly ListedKeyCreate[]): string | null {
  const bySku = creates.filter((create) => create.field === 'sku');
  const byOwnName = new Map<string, ListedKeyCreate[]>();
  for (const create of creates)
    if (create.field !== 'sku') byOwnName.set(create.field, [...(byOwnName.get(create.field) ?? []), create]);
  const reasons = [
    ...(bySku.length > 0 ? [skuText(bySku)] : []),
    ...[...byOwnName.values()].map(ownNameText),
  ];
  return reasons.length > 0 ? reasons.join('; ') : null;
}

function skuText(creates: readonly ListedKeyCreate[]): string {
  const one = creates.length === 1;
  return (
    `${wouldCreate(creates)}: ` +
    (one
      ? 'creating it may duplicate that product (approve creates it anyway)'
      : 'creating them may duplicate those products (approve creates them anyway)')
  );
}

/**
 * `… would create products: ean is a text field of those products, as --match-by ean made products
 * before this version read the EAN column as barcode; to match by it, run with --mapping FILE, FILE
 * holding {preset: generic, fields: {ean: {column: EAN, custom: true}}, matchBy: ean} (approve would
 * create a second product of each)`. The file is one line of YAML (its flow form), to copy as it
 * stands; only the generic preset reads a column as a field of another name (match-field.ts).
 */
function ownNameText(creates: readonly ListedKeyCreate[]): string {
  const [first] = creates as [ListedKeyCreate];
  const { field, matchBy } = first;
  const column = first.column ?? field;
  const one = creates.length === 1;
  const mapping = `{preset: generic, fields: {${yamlName(field)}: {column: ${yamlName(column)}, custom: true}}, matchBy: ${yamlName(field)}}`;
  return (
    `${wouldCreate(creates)}: ${field} is a text field of ${one ? 'that product' : 'those products'}, ` +
    `as --match-by ${field} made products before this version read the ${column} column as ${matchBy}; ` +
    `to match by it, run with --mapping FILE, FILE holding ${mapping} ` +
    `(approve would create ${one ? 'that product a second time' : 'a second product of each'})`
  );
}

/** `row 1 (barcode 4001) would create a product, but product 17 has its sku V1`, or the rows'. */
function wouldCreate(creates: readonly ListedKeyCreate[]): string {
  const keyed = (create: ListedKeyCreate) => `${create.matchBy} ${create.key}`;
  const has = (create: ListedKeyCreate) =>
    `product ${create.productId} has its ${create.field} ${create.value}`;
  const [first] = creates as [ListedKeyCreate];
  if (creates.length === 1)
    return `row ${first.row} (${keyed(first)}) would create a product, but ${has(first)}`;
  const shown = creates.slice(0, NAMED).map((create) => `${create.row} (${keyed(create)}; ${has(create)})`);
  const more = creates.length - shown.length;
  const all = more > 0 ? [...shown, `${more} more`] : shown;
  const last = all.pop();
  return `rows ${all.join(', ')} and ${last} would create products`;
}

/** A name as a YAML flow scalar: as it stands when plain, else quoted as JSON (which YAML reads). */
function yamlName(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_ -]*$/.test(name) && !name.endsWith(' ') ? name : JSON.stringify(name);
}
