import type { ChainableCommander } from 'ioredis';
import { trimCell } from '../catalog/cell-text.js';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunSpec } from '../runs/run-record.js';
import type { RemoteProduct } from '../seller-api/index.js';
import { LOOKALIKE_GUARDED } from './unrecorded-names.js';

/*
 * A run matched by another field than sku (`--match-by barcode`) creates a row's product when no
 * listed product has the row's value of that field. A product made by a run matched otherwise (its
 * SKU given, its barcode not; or its EAN kept as a text field `ean` by an older run) is then made a
 * second time, the same SKU on both. So the run's own list read keeps, besides its index, which
 * product has each SKU, and each value under the match column's own name; a create of a row with
 * one of them holds the run (guards/listed-key-creates.ts). A run matched by sku keeps nothing here.
 */

/**
 * The fields a listed product may carry a row's product by, besides the match field: `sku` when the
 * rows send it (a create gives it to the new product), and the match column's own names. None for a
 * run matched by sku.
 */
export function listedKeyFields(
  run: Pick<RunSpec, 'matchBy' | 'sentFields' | 'matchColumnNames'>,
): readonly string[] {
  if (run.matchBy === 'sku') return [];
  const sku = run.sentFields?.includes('sku') ? ['sku'] : [];
  return [...sku, ...(run.matchColumnNames ?? [])];
}

/** The listedKeys hash field of a value: JSON, so that no field name and value run together. */
export function listedKeyOf(field: string, value: string): string {
  return JSON.stringify([field, value]);
}

/**
 * Queues a page's products' values of `fields` (each product under each value it has), and marks
 * the run so that it plans first (LOOKALIKE_GUARDED); nothing when no product of the page has one.
 */
export function queueListedKeys(
  multi: ChainableCommander,
  keys: RedisKeys,
  runId: string,
  page: readonly RemoteProduct[],
  fields: readonly string[],
): void {
  const pairs: string[] = [];
  for (const product of page)
    for (const field of fields) {
      const value = listedValue(product.fields[field]);
      if (value !== null) pairs.push(listedKeyOf(field, value), product.id);
    }
  if (pairs.length === 0) return;
  multi.hset(keys.listedKeys(runId), ...pairs);
  multi.expire(keys.listedKeys(runId), RUN_TTL_SECONDS);
  multi.hset(keys.run(runId), LOOKALIKE_GUARDED, 1);
}

/**
 * A listed value as a row's key is compared (list-pages.ts matchKeyOf): read as a cell is (trimCell),
 * so that `SP` in the file finds the product whose SKU is `SP ` (its key is not changed for it:
 * diff.ts), and one with a byte order mark at its edge is a key with an invisible character
 * (sync/invisible-edge-keys.ts), not the clean key.
 */
export function listedValue(value: unknown): string | null {
  if (typeof value === 'string') {
    const key = trimCell(value);
    return key === '' ? null : key;
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}
