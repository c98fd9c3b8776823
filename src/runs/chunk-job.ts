import type { Queue } from 'bullmq';
import { CHUNK_JOB_ATTEMPTS, CHUNK_JOB_BACKOFF_MS, FAILED_JOBS_KEPT } from '../defaults.js';
import type { ProductUpsert } from '../interfaces.js';
import { type StoredSource, toStored, withParentValues } from './parent-sources.js';
import type { RowSource } from './source-rows.js';

/**
 * A job: a chunk of one run's rows (docs/architecture.md, decision 2). It never carries the API key.
 * Its own module, with its id and how it is added: the producer, the guards, `approve` and the
 * deactivations add jobs; the processor and the failure handler read them.
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
  sources?: (StoredSource | null)[];
  /**
   * The values of the rows that rows of this chunk took product fields from (a variant's parent),
   * by row number: once per chunk, however many of its rows name it (a row's StoredSource).
   */
  parentSources?: Record<string, string[]>;
  /** With phase `deactivate`: the managed products gone from the source (remote id, match key). */
  deactivate?: DeactivateItem[];
}

/** The chunk's rows' source values as its job carries them: each parent's values once. */
export function packSources(
  sources: readonly (RowSource | null)[],
): Pick<ChunkJobData, 'sources' | 'parentSources'> {
  if (sources.every((source) => source === null)) return {};
  if (sources.every((source) => source === null || Array.isArray(source)))
    return { sources: sources as (string[] | null)[] };
  const parentSources: Record<string, string[]> = {};
  const packed = sources.map((source) => {
    if (source === null) return source;
    const { stored, parents } = toStored(source);
    for (const parent of parents) parentSources[parent.row] = parent.values;
    return stored;
  });
  return { sources: packed, parentSources };
}

export interface DeactivateItem {
  id: string;
  key: string;
}

/** The rows' source values by row number (none for a job queued before they were carried). */
export function sourcesByRow(data: ChunkJobData): Map<number, RowSource> {
  const byRow = new Map<number, RowSource>();
  const parents = new Map(
    Object.entries(data.parentSources ?? {}).map(([row, values]) => [Number(row), values]),
  );
  data.rows.forEach((row, i) => {
    const source = data.sources?.[i];
    if (source) byRow.set(row.row, withParentValues(source, parents));
  });
  return byRow;
}

/** A chunk job's id: `<run id>-<chunk>`, or `<run id>-apply-<chunk>`, `<run id>-approve<round>-<chunk>`. */
export function chunkJobId(runId: string, chunk: number, phase?: ChunkJobData['phase'], round = 0): string {
  if (phase === 'apply') return `${runId}-apply-${chunk}`;
  if (phase === 'approve') return `${runId}-approve${round}-${chunk}`;
  if (phase === 'deactivate') return `${runId}-deactivate${round}-${chunk}`;
  return `${runId}-${chunk}`;
}

/** The run a chunk job id belongs to, or null for another id. */
export function runIdOfChunkJob(jobId: string): string | null {
  const match = /^(.+?)(?:-apply|-approve\d+|-deactivate\d+)?-\d+$/.exec(jobId);
  return match?.[1] ?? null;
}

/** Adds a chunk job; its id is deterministic, so a chunk added twice is stored once. */
export async function addChunk(queue: Queue<ChunkJobData>, data: ChunkJobData): Promise<void> {
  await queue.add('chunk', data, {
    jobId: chunkJobId(data.runId, data.chunk, data.phase, data.round),
    removeOnComplete: true,
    removeOnFail: FAILED_JOBS_KEPT,
    // Rows settle once each, so a chunk tried again after a Redis error is safe. These attempts are
    // the job's, not the requests': a request is tried again only by its own layer (the client for
    // a read, row sync for a write), and an API failure settles rows instead of failing the job.
    attempts: CHUNK_JOB_ATTEMPTS,
    backoff: { type: 'exponential', delay: CHUNK_JOB_BACKOFF_MS },
  });
}
