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
   */
  phase?: 'apply' | 'approve';
  round?: number;
}
