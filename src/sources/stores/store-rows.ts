import { relay } from '../../async-relay.js';
import type { SourceRecord } from '../../interfaces.js';
import type { OpenedSource, RowEstimate } from '../types.js';

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
 * --failed-only` writes rows that import back as that platform's export), the preset forced. The
 * first row is read before this resolves, as a file's first record is: a store whose catalog cannot
 * be read at all (an expired result file, a refused address) fails here, before any write.
 * `giveUp` ends the wait or call under way when the source is closed before its end.
 */
export async function storeSource(store: StoreRows, giveUp: () => void = () => {}): Promise<OpenedSource> {
  let row = 0;
  const records = relay<Record<string, string>, SourceRecord>(store.rows, {
    each: (values) => {
      row++;
      return { row, line: row + 1, values };
    },
  });
  const first = await records.next();
  const close = async () => {
    // A generator's return waits for the step under way (a page in a 300 s Retry-After): ended first.
    giveUp();
    await store.rows.return(undefined);
  };
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
    records: relay(records, { first: first.done ? [] : [first.value], onEnd: close }),
    close,
  };
}
