import { DELIMITERS } from '../sources/detect-delimiter.js';
import { UsageError } from '../usage-error.js';
import { readOutcomes } from './outcome-rows.js';
import { parentRowsOf, parentValues, withParentValues } from './parent-sources.js';
import type { RunRecord, RunStore } from './run-store.js';
import type { ParentSource, RowSource } from './source-rows.js';

/** How a run's source wrote its rows: what `report --failed-only` writes them back with. */
export interface SourceShape {
  header: string[];
  delimiter: string;
}

/** One source row that failed or was invalid: its raw values (aligned to the header) and the reason. */
export interface FailedSourceRow {
  row: number;
  values: string[];
  error: string;
  /** The rows it took product fields from (a variant's parent): written back before it. */
  parents?: ParentSource[];
}

/** Which of `rows` failed and kept their own values (they are written with their own error). */
export async function keptAsFailed(
  runs: RunStore,
  runId: string,
  rows: readonly number[],
): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const kept = await runs.redis.hmget(runs.keys.failedSources(runId), ...rows.map(String));
  return new Set(rows.filter((_, i) => kept[i] !== null));
}

/**
 * Null for a run from before catalog-sync kept its source rows. What Redis holds is not trusted: the
 * delimiter shapes every line of the file (or of the terminal), so it must be one this tool records
 * (`,` `;` tab `|`), and the header a list of texts; anything else is refused in one line rather
 * than replaced by `,`: this tool never records another, so the record was written by something
 * else, and a file in a delimiter the source did not have would not import back as the source did.
 */
export async function sourceShape(runs: RunStore, runId: string): Promise<SourceShape | null> {
  const [header, delimiter] = await runs.redis.hmget(runs.keys.run(runId), 'sourceHeader', 'sourceDelimiter');
  if (!header) return null;
  const refused = (what: string) =>
    new UsageError(
      `run ${runId}'s record in Redis ${what}: not written by catalog-sync, so no file is written from it`,
    );
  if (delimiter && !(DELIMITERS as readonly string[]).includes(delimiter)) {
    throw refused(`names the delimiter ${JSON.stringify(delimiter.slice(0, 20))}, none of , ; tab |`);
  }
  const columns = parsedOrNull(header);
  if (!Array.isArray(columns) || !columns.every((name) => typeof name === 'string')) {
    throw refused('holds a source header that is not a list of column names');
  }
  return { header: columns, delimiter: delimiter || ',' };
}

function parsedOrNull(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}

/**
 * The rows whose source values were kept (they settled failed or invalid), in source order, read in
 * batches: a million-row run is never held whole.
 */
export async function* failedSourceRows(
  runs: RunStore,
  run: RunRecord,
  batchSize = 1000,
): AsyncGenerator<FailedSourceRow> {
  const { redis, keys } = runs;
  for (let first = 1; first <= run.total; first += batchSize) {
    const rows = Array.from({ length: Math.min(batchSize, run.total - first + 1) }, (_, i) => first + i);
    const kept = await redis.hmget(keys.failedSources(run.id), ...rows.map(String));
    const failed = rows.flatMap((row, i) => (kept[i] ? [{ row, json: kept[i] }] : []));
    if (failed.length === 0) continue;
    const outcomes = await readOutcomes(
      redis,
      keys,
      run.id,
      failed.map(({ row }) => row),
    );
    const sources = failed.map(({ row, json }) => storedRowSource(run.id, row, json));
    const parentRows = sources.flatMap(parentRowsOf);
    const parents = await parentValues(redis, keys.parentSources(run.id), parentRows).catch((error) => {
      throw error instanceof SyntaxError ? storedRowsRefused(run.id, parentRows[0] ?? 0) : error;
    });
    for (const [i, { row }] of failed.entries()) {
      const source = withParentValues(sources[i] as RowSource, parents);
      const error = outcomes[i]?.error ?? '';
      yield Array.isArray(source)
        ? { row, values: source, error }
        : { row, values: source.values, error, parents: source.parents };
    }
  }
}

/**
 * A failed row's source values as Redis keeps them: a list of cells, or cells and the rows it takes
 * fields from (source-rows.ts). Anything else was not written by this tool: one line, not a stack.
 */
function storedRowSource(runId: string, row: number, json: string): RowSource {
  const source = parsedOrNull(json) as RowSource | null;
  if (Array.isArray(source)) return source;
  const wellFormed =
    typeof source === 'object' &&
    source !== null &&
    Array.isArray(source.values) &&
    Array.isArray(source.parents) &&
    source.parents.every(
      (parent) =>
        typeof parent === 'number' ||
        (typeof parent === 'object' && parent !== null && Array.isArray(parent.values)),
    );
  if (!wellFormed) throw storedRowsRefused(runId, row);
  return source;
}

function storedRowsRefused(runId: string, row: number): UsageError {
  return new UsageError(
    `run ${runId}'s record in Redis holds source values of row ${row} in a form catalog-sync never writes: no file is written from it`,
  );
}
