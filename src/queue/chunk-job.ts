import type { ProductUpsert } from '../interfaces.js';

/**
 * A job: a chunk of one run's rows (ARCHITECTURE.md, decision 2). It never carries the API key.
 * Its own module: the producer writes it, the processor and the failure handler read it.
 */
export interface ChunkJobData {
  runId: string;
  chunk: number;
  rows: ProductUpsert[];
  /**
   * Absent: the rows as read (a guarded run plans them first, see src/guards). `apply`: the writes of
   * a guarded run whose guards passed. `approve`: held writes that `approve` sends (round `round`).
   * `deactivate`: the PUTs of `--missing` for the products in `deactivate` (`rows` is empty).
   */
  phase?: 'apply' | 'approve' | 'deactivate';
  round?: number;
  /**
   * Each row's raw source values (aligned to the run's source header), at its row's index in
   * `rows`: kept by a row that fails, for `report --failed-only`. Absent in jobs queued before.
   */
  sources?: (string[] | null)[];
  /** With phase `deactivate`: the managed products gone from the source (remote id, match key). */
  deactivate?: DeactivateItem[];
}

export interface DeactivateItem {
  id: string;
  key: string;
}

/** The rows' source values by row number (none for a job queued before they were carried). */
export function sourcesByRow(data: ChunkJobData): Map<number, string[]> {
  const byRow = new Map<number, string[]>();
  data.rows.forEach((row, i) => {
    const values = data.sources?.[i];
    if (values) byRow.set(row.row, values);
  });
  return byRow;
}
