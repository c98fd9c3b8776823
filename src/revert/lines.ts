import { countOf } from '../count-words.js';
import type { FieldValue } from '../interfaces.js';
import type { RevertedProduct, RevertResult } from './revert-run.js';

/**
 * What `revert` prints: one line per product it acted on or left alone, in ascending product id
 * (the products it updated, then those it created), then a summary. Values are quoted from the
 * API and Redis: the caller shows them through terminalSafe.
 */
export function revertLines(result: RevertResult, dryRun: boolean): string[] {
  const lines = result.products.map(
    (product) => `${name(product.id, product.key)}: ${whatBecame(product, dryRun)}`,
  );
  for (const { id, key } of result.created)
    lines.push(`${name(id, key)}: created by the run: not deleted, the API has no delete`);
  return lines;
}

export function revertSummary(result: RevertResult, dryRun: boolean): string {
  const put = result.products.filter((p) => (dryRun ? p.result === 'not-sent' : p.result === 'put'));
  const fields = put.reduce((n, p) => n + Object.keys(p.put).length, 0);
  const kept = result.products.reduce((n, p) => n + p.kept.length, 0);
  const already = result.products.filter(
    (p) => p.result === 'nothing' && !p.gone && p.alreadyBack.length > 0,
  );
  const gone = result.products.filter((p) => p.gone).length;
  const failed = result.products.filter((p) => p.result === 'failed').length;
  const parts = [
    `${dryRun ? 'would revert' : 'reverted'} ${countOf(put.length, 'product')} (${countOf(fields, 'field')})`,
    `${countOf(kept, 'field')} left alone`,
    `${countOf(result.created.length, 'created product')} listed`,
  ];
  if (already.length > 0) parts.push(`${countOf(already.length, 'product')} already as before the run`);
  if (gone > 0) parts.push(`${countOf(gone, 'product')} gone`);
  if (failed > 0) parts.push(`${failed} failed`);
  const summary = parts.join(', ');
  if (put.length === 0 && failed === 0 && !dryRun) return `nothing to put back: ${summary}`;
  return dryRun ? `dry run: ${summary}; nothing was written` : summary;
}

function whatBecame(product: RevertedProduct, dryRun: boolean): string {
  if (product.gone) return 'gone from the marketplace: nothing to put back';
  const parts: string[] = [];
  const values = Object.entries(product.put)
    .map(([field, value]) => `${field} ${shown(value)}`)
    .join(', ');
  if (values) {
    const from = product.fromRecord ? ` (${lastSent(Object.keys(product.put).length)})` : '';
    if (product.result === 'put') parts.push(`put back ${values}${from}`);
    else if (product.result === 'failed') parts.push(`not put back (${product.error}): ${values}${from}`);
    else parts.push(`${dryRun ? 'would put back' : 'not put back yet'} ${values}${from}`);
  }
  for (const kept of product.kept) parts.push(kept.reason);
  if (parts.length === 0) return 'nothing to put back (as before the run)';
  return parts.join('; ');
}

/** Where the values put back come from when the run read no product. */
function lastSent(fields: number): string {
  return `as this tool last sent ${fields === 1 ? 'it' : 'them'}: the run read no product`;
}

function name(id: string, key: string): string {
  return `product ${id} (${key})`;
}

function shown(value: FieldValue): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
