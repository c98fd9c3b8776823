import { trimCell } from '../cell-text.js';
import { kindOf, listItems } from '../fields.js';
import { sourceList } from '../source-lists.js';
import type { Draft, Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';
import { UNSENDABLE_FIELD, unsendableReason } from './unsendable.js';

/**
 * The generic preset (README, What each preset reads): each column name is a product field, sent as
 * is, or read under the name `run.nameOf` gives it (`stock` as quantity: generic-header.ts for a
 * CSV's header, generic-keys.ts for a JSON record's keys); an `id` column is the remote product id
 * and addresses the product (it is not sent as a field).
 */
export const generic: Preset = {
  name: 'generic',
  signature: { required: [], distinctive: [] },
  decimalStyle: 'auto',
  // A JSON record's keys may name one field twice (`quantity`, `stock`): one field all the same.
  fields: (columns) => [...new Set(columns)].filter((column) => column !== 'id'),
  create: (_columns, run) => {
    const nameOf = run.nameOf ?? ((column: string) => column);
    return oneToOne((record) => {
      const fields: RawFields = {};
      // A for-in over the record's keys (a plain object: the same keys, in the same order, as
      // Object.entries), which built an array per row and one per cell: 141 MB of the 2.1 GB a
      // 300,000-row import allocated, for the garbage collector to sweep (issue 12).
      const { values, lists } = record;
      // A JSON item may bring it after the sample the header check saw (mapper.ts): never dropped.
      if (Object.hasOwn(values, UNSENDABLE_FIELD))
        return { kind: 'invalid', record, reason: unsendableReason(`item ${record.row}`) };
      let id: string | undefined;
      // Made only for a record whose keys give one field two values (rare).
      let twice: Set<string> | undefined;
      for (const column in values) {
        let field = nameOf(column);
        // Beside the field's own name in the same record (`"quantity": 5, "stock": "in stock"`), a
        // word or another case is sent under its own name, as a CSV header with both columns reads
        // it: the own name is what the exporter meant by the field, and a feed that always carries
        // both is not refused row by row.
        if (field !== column && field !== 'id' && givenBefore(values, column, field)) field = column;
        // A list field takes a list the source gave item by item (an item may hold a `,`); a
        // text field, and a list field from a CSV cell, the text (split on `,` by its kind).
        const list = lists && kindOf(field) === 'list' ? sourceList(record, column) : undefined;
        const value = list ? listItems(list) : trimCell(values[column] as string);
        // A blank cell means "leave as it is": no value, and none to differ from another.
        if ((Array.isArray(value) ? value.length === 0 : value === '') || twice?.has(field)) continue;
        const before = field === 'id' ? id : Object.hasOwn(fields, field) ? fields[field] : undefined;
        // Two words read as one field and no own name (a JSON item's `stock` and `qty`): which one
        // is meant cannot be told, so neither is sent and the row is refused (the same value twice is it).
        if (before !== undefined && !sameValue(before, value)) {
          twice ??= new Set();
          twice.add(field);
          if (field === 'id') id = undefined;
          else delete fields[field];
        } else if (field === 'id') id = value as string;
        else fields[field] = value;
      }
      // The currency a price cell writes (`12.50 USD`) is sent by finishDraft, as for every preset.
      const notes: string[] = [];
      const draft: Extract<Draft, { kind: 'product' }> = id
        ? { kind: 'product', record, fields, id, notes }
        : { kind: 'product', record, fields, notes };
      // Where a column near the name is sent under its own (`Titel`), a create says which: a mapping
      // file may still give the name (validate.ts keeps this only where it does not).
      if (fields.name === undefined) {
        const unnamed = run.unnamed?.();
        if (unnamed !== undefined) draft.unnamed = unnamed;
      }
      if (twice === undefined) return draft;
      const [field] = twice;
      return { ...draft, refused: twiceReason(field as string, values, nameOf) };
    });
  },
};

/** Whether `values` gives `field` under its own name, not blank (a blank cell leaves it as it is). */
/**
 * Whether `values` gives `field` by a name that goes before `column` (read as it), not blank: as a CSV
 * header reads them, the field's own name before any other, and its own name in another case
 * (`Quantity`) before another platform's word (`stock`). (A blank cell leaves the field as it is.)
 */
function givenBefore(values: Record<string, string>, column: string, field: string): boolean {
  if (given(values, field)) return true;
  // `column` is the field in another case: only the own name goes before it.
  if (column.trim().toLowerCase() === field) return false;
  // `column` is a word: the field in any case goes before it (a loop only for a word's key: rare).
  for (const other in values)
    if (other !== column && other.trim().toLowerCase() === field && given(values, other)) return true;
  return false;
}

function given(values: Record<string, string>, name: string): boolean {
  const value = Object.hasOwn(values, name) ? values[name] : undefined;
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined;
}

function sameValue(a: string | string[], b: string | string[]): boolean {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/** `quantity given twice, with different values: by quantity, and by stock read as quantity (…)`. */
function twiceReason(
  field: string,
  values: Record<string, string>,
  nameOf: (column: string) => string,
): string {
  const keys = Object.keys(values)
    .filter((column) => nameOf(column) === field && values[column]?.trim() !== '')
    // The field's own name first, then the others as sorted: the same line whatever their order.
    .sort((a, b) => (a === field ? -1 : b === field ? 1 : a < b ? -1 : a > b ? 1 : 0));
  const by = keys.map((column) => (column === field ? `by ${column}` : `by ${column} read as ${field}`));
  const last = by.pop();
  return `${field} given twice, with different values: ${by.join(', ')}, and ${last} (docs/sources.md)`;
}
