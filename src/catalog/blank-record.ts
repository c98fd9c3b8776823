import type { SourceRecord } from '../interfaces.js';

/**
 * A record with every cell blank or spaces only (the `,,,` rows a spreadsheet saves after its
 * data, a JSON item with empty values): it stands for no product. A record that could not be read
 * whole is never blank: its cells may not all be in `values` (more cells than the header has).
 */
export function isBlankRecord(record: SourceRecord): boolean {
  if (record.problem !== undefined) return false;
  for (const name in record.values) if (record.values[name]?.trim()) return false;
  return true;
}
