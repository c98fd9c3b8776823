import { expect } from 'vitest';
import { type CatalogRow, catalogRows } from './catalog.js';
import { runIdOf } from './cli.js';
import type { Pipeline } from './pipeline.js';

/**
 * A run a guard held whole (exit 5): `rows` synced first, then `changed` of them run with `flags`
 * (a guard's), the held run's id returned. The approve tests start from it.
 */
export async function syncedThenHeld(
  pipeline: Pipeline,
  rows: CatalogRow[],
  changed: (row: CatalogRow) => CatalogRow,
  flags: string[],
): Promise<string> {
  expect((await pipeline.cli(['run', await pipeline.csv('good.csv', rows)])).code).toBe(0);
  const held = await pipeline.cli(['run', await pipeline.csv('changed.csv', rows.map(changed)), ...flags]);
  expect(held.code, held.stderr).toBe(5);
  return runIdOf(held.stdout);
}

/** `count` rows synced, then every price doubled under --max-price-change 10%: every row held. */
export function pricesDoubledHeld(pipeline: Pipeline, count = 20): Promise<string> {
  return syncedThenHeld(
    pipeline,
    catalogRows(count),
    (row) => ({ ...row, price: String(Number(row.price) * 2) }),
    ['--max-price-change', '10%'],
  );
}

/** `count` rows synced, then every name changed under --max-updates 2: the whole run held. */
export function renamedHeld(pipeline: Pipeline, count = 6): Promise<string> {
  return syncedThenHeld(pipeline, catalogRows(count), (row) => ({ ...row, name: `${row.name} v2` }), [
    '--max-updates',
    '2',
  ]);
}
