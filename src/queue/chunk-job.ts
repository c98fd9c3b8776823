import type { ProductUpsert } from '../interfaces.js';

/**
 * A job: a chunk of one run's rows (ARCHITECTURE.md, decision 2). It never carries the API key.
 * Its own module: the producer writes it, the processor and the failure handler read it.
 */
export interface ChunkJobData {
  runId: string;
  chunk: number;
  rows: ProductUpsert[];
}
