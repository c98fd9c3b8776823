import { put } from './columns.js';
import type { Preset, RawFields } from './types.js';
import { oneToOne } from './types.js';

/**
 * CONTRACT "The generic preset": each column name is a product field, sent as is; an `id` column
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
      for (const [column, text] of Object.entries(record.values)) {
        if (column !== 'id') put(fields, column, text.trim());
      }
      const id = record.values.id?.trim();
      return id
        ? { kind: 'product', record, fields, id, notes: [] }
        : { kind: 'product', record, fields, notes: [] };
    }),
};
