import { join } from 'node:path';
import { type CatalogRow, parseCsv } from '../support/catalog.js';
import { runIdOf } from '../support/cli.js';
import { bySku, MAIN_SELLER, type Pipeline } from '../support/pipeline.js';

/** The seller's products before the run: two it will update, one it leaves as it is. */
export const SEEDED = [
  { sku: 'LAMP', name: 'Desk lamp', price: 20 },
  { sku: 'MUG', name: 'Mug', price: 5 },
  { sku: 'CHAIR', name: 'Chair', price: 40 },
];

/** The run: LAMP renamed and repriced, MUG repriced, CHAIR unchanged, two products created. */
export const RUN_ROWS: CatalogRow[] = [
  { sku: 'LAMP', name: 'Desk lamp, brass', price: '22.50' },
  { sku: 'MUG', name: 'Mug', price: '6' },
  { sku: 'CHAIR', name: 'Chair', price: '40.00' },
  { sku: 'NEW-1', name: 'Shelf', price: '15' },
  { sku: 'NEW-2', name: 'Rug', price: '80' },
];

/** Seeds the seller, runs RUN_ROWS; resolves to the run id and the product ids by sku. */
export async function changingRun(pipeline: Pipeline): Promise<{ runId: string; ids: Map<string, string> }> {
  pipeline.sandbox.seedProducts(MAIN_SELLER, SEEDED);
  const report = join(pipeline.dir, 'run-report.csv');
  const result = await pipeline.cli(['run', await pipeline.csv('catalog.csv', RUN_ROWS), '--report', report]);
  if (result.code !== 0) throw new Error(`the run failed (${result.code}): ${result.stderr}`);
  const ids = new Map(
    parseCsv(await pipeline.readText('run-report.csv')).map((l) => [l.key ?? '', l.product_id ?? '']),
  );
  return { runId: runIdOf(result.stdout), ids };
}

/** The PUTs the sandbox served since its stats were last reset: product id → body. */
export function putsSinceReset(
  pipeline: Pipeline,
): Array<{ id: string; body: unknown; status: number | string }> {
  return pipeline.sandbox
    .requests()
    .filter((request) => request.method === 'PUT')
    .map((request) => ({ id: request.query.id ?? '', body: request.body, status: request.status }));
}

/** A product's name and price as the sandbox stores them. */
export function nameAndPrice(pipeline: Pipeline, sku: string) {
  const product = bySku(pipeline.products()).get(sku);
  return { name: product?.name, price: product?.price };
}
