import type { SourceRecord } from '../interfaces.js';
import type { OpenedSource, RowEstimate } from '../sources/types.js';

/** A store's catalog as the rows of the platform's own CSV export, and the preset that reads them. */
export interface StoreRows {
  preset: 'shopify' | 'woocommerce';
  columns: string[];
  detections: string[];
  rowEstimate: RowEstimate | null;
  rows: AsyncGenerator<Record<string, string>>;
}

/**
 * The store as an opened source: CSV-shaped records in the export's columns (so `report
 * --failed-only` writes rows that import back as that platform's export), the preset forced.
 */
export function storeSource(store: StoreRows): OpenedSource {
  async function* records(): AsyncGenerator<SourceRecord> {
    let row = 0;
    for await (const values of store.rows) {
      row++;
      yield { row, line: row + 1, values };
    }
  }
  const iterator = records();
  return {
    format: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
    columns: store.columns,
    openColumns: false,
    header: store.columns,
    detections: store.detections,
    rowEstimate: store.rowEstimate,
    preset: store.preset,
    records: iterator,
    async close() {
      await iterator.return(undefined);
      await store.rows.return(undefined);
    },
  };
}
