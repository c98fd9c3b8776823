import { kindOf, listItems } from '../fields.js';
import { sourceList } from '../source-lists.js';
import { put } from './columns.js';
import type { Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';
import { UNSENDABLE_FIELD, unsendableReason } from './unsendable.js';

/**
 * The generic preset (README, What each preset reads): each column name is a product field, sent as
 * is; an `id` column
 * is the remote product id and addresses the product (it is not sent as a field).
 */
export const generic: Preset = {
  name: 'generic',
  signature: { required: [], distinctive: [] },
  decimalStyle: 'auto',
  fields: (columns) => columns.filter((column) => column !== 'id'),
  create: () =>
    oneToOne((record) => {
      const fields: RawFields = {};
      // A for-in over the record's keys (a plain object: the same keys, in the same order, as
      // Object.entries), which built an array per row and one per cell: 141 MB of the 2.1 GB a
      // 300,000-row import allocated, for the garbage collector to sweep (issue 12).
      const { values, lists } = record;
      // A JSON item may bring it after the sample the header check saw (mapper.ts): never dropped.
      if (Object.hasOwn(values, UNSENDABLE_FIELD))
        return { kind: 'invalid', record, reason: unsendableReason(`item ${record.row}`) };
      for (const column in values) {
        if (column === 'id') continue;
        // A list field takes a list the source gave item by item (an item may hold a `,`); a
        // text field, and a list field from a CSV cell, the text (split on `,` by its kind).
        const list = lists && kindOf(column) === 'list' ? sourceList(record, column) : undefined;
        put(fields, column, list ? listItems(list) : (values[column] as string).trim());
      }
      const id = record.values.id?.trim();
      return id
        ? { kind: 'product', record, fields, id, notes: [] }
        : { kind: 'product', record, fields, notes: [] };
    }),
};
