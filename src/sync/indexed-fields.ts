import type { RunRecord } from '../runs/run-record.js';

/**
 * Fields an API stamps on every product by itself (the sandbox shows them, as many APIs do). No
 * reader of a run's index compares them (diff, revert, the missing scan, the created-product
 * finder: they read the fields a row sends, the match key and the `--missing` fields), unless the
 * source sends a field of that name. Left out, an entry is a third smaller (issue 12).
 */
const STAMPED_BY_API = ['created_at', 'updated_at'];

export interface IndexedFields {
  /** `--fields`: only these (and the match key, and the `--missing` fields) are kept; null keeps every field but `leaveOut`. */
  only: ReadonlySet<string> | null;
  leaveOut: ReadonlySet<string>;
}

export function indexedFieldsOf(
  run: Pick<RunRecord, 'fields' | 'matchBy' | 'sentFields' | 'missing'>,
): IndexedFields {
  // The `--missing` fields too: the deactivation compares them ("already so") and records what they
  // showed before, to give it back when the product returns; left out, every night would send the
  // PUT again and a product's former stock would be lost (`--fields sku,name,price --missing quantity=0`).
  const only = run.fields ? new Set([...run.fields, run.matchBy, ...Object.keys(run.missing ?? {})]) : null;
  // A price sent without currency goes only to a product in the currency its row names: the
  // product's currency is read to tell (sync/currency-unsent.ts).
  if (only && !only.has('currency') && (only.has('price') || only.has('sale_price'))) only.add('currency');
  // A run record from before sentFields was kept says nothing of what the source sends: keep all.
  if (!run.sentFields) return { only, leaveOut: new Set() };
  const read = new Set([...run.sentFields, run.matchBy, ...Object.keys(run.missing ?? {})]);
  return { only, leaveOut: new Set(STAMPED_BY_API.filter((field) => !read.has(field))) };
}
