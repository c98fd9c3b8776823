import { SETTLE_HOLD } from '../defaults.js';
import { wouldHoldUpdate } from '../guards/dry-run-verdict.js';
import { heldAtWrite } from '../guards/held-at-write.js';
import { HeldRows } from '../guards/held-rows.js';
import { planWrite, samePlan, withReplanNote } from '../guards/planned-writes.js';
import { supersededOutcomes } from '../guards/superseded.js';
import { isPlanned } from '../guards/verdict.js';
import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import { type PlannedWrite, PlanStore } from '../plan/plan-store.js';
import type { ChunkJobData } from '../runs/chunk-job.js';
import type { RedisKeys } from '../runs/keys.js';
import type { RunRecord, RunSpec, RunStore } from '../runs/run-store.js';
import type { RowWrite } from '../runs/settle-batch.js';
import { SettleBatch } from '../runs/settle-batch.js';
import type { SettleFence } from '../runs/settle-fence.js';
import type { RowSource } from '../runs/source-rows.js';
import type { RowLookup } from '../sync/remote-index.js';
import { syncRow } from '../sync/row-sync.js';
import type { RowSyncContext } from '../sync/row-sync-context.js';

/**
 * What a chunk does with its rows: `write` them (an unguarded run, or a guarded run's `apply`
 * jobs), `plan` them (a guarded run before its guards are decided, or a run over the day's quota
 * before its writes are ordered: nothing is sent), or `approve`
 * the held ones (re-diffed against the products as listed now).
 */
export type ChunkMode = 'write' | 'plan' | 'approve';

export function chunkMode(data: ChunkJobData, spec: RunSpec & { planFirst?: boolean }): ChunkMode {
  if (data.phase === 'approve') return 'approve';
  if (data.phase === 'apply') return 'write';
  return isPlanned(spec) ? 'plan' : 'write';
}

export interface ChunkRows {
  /** The rows of the chunk that still need this mode's work (a chunk tried again skips the others). */
  todo(rows: ProductUpsert[]): Promise<ProductUpsert[]>;
  /** Plans, writes or approves one row, and records what became of it. */
  handle(context: RowSyncContext, row: ProductUpsert, lookup: RowLookup): Promise<void>;
  /** Rows that could not be synced at all: their outcomes, settled as this mode settles. */
  settle(outcomes: RowOutcome[]): Promise<void>;
  /** Settles what `handle` held for the end of the chunk (rows that sent no write). */
  flush(): Promise<void>;
}

/** Outcomes of rows that sent no write: a chunk tried again recomputes them identically. */
const UNWRITTEN: ReadonlySet<RowOutcome['action']> = new Set(['unchanged', 'skipped', 'invalid']);

interface ChunkRowsDeps {
  redis: ConstructorParameters<typeof PlanStore>[0];
  keys: RedisKeys;
  runs: RunStore;
}

export function chunkRows(
  deps: ChunkRowsDeps,
  runId: string,
  spec: RunRecord,
  mode: ChunkMode,
  /** The rows' source values: a row that fails keeps them for `report --failed-only`. */
  sources: ReadonlyMap<number, RowSource> = new Map(),
  /** The chunk attempt's job lock: its rows settle only while no other attempt holds the chunk. */
  fence?: SettleFence,
): ChunkRows {
  const plans = new PlanStore(deps.redis, deps.keys);
  const held = new HeldRows(deps.redis, deps.keys);
  const unsettled = async (rows: ProductUpsert[]) => {
    const settled = await deps.runs.settledRows(
      runId,
      rows.map((row) => row.row),
    );
    return rows.filter((row) => !settled.has(row.row));
  };
  // An `apply` or `approve` job carries no source values: a failed row finds its own in the plan.
  const sourcesOf = async (outcomes: RowOutcome[]): Promise<ReadonlyMap<number, RowSource>> => {
    const lacking = outcomes.flatMap((o) =>
      o.status === 'failed' && o.row !== null && !sources.has(o.row) ? [o.row] : [],
    );
    if (lacking.length === 0) return sources;
    const all = new Map(sources);
    for (const [row, source] of await plans.sources(runId, lacking)) all.set(row, source);
    return all;
  };
  const settle = async (outcomes: RowOutcome[], records: RowWrite[] = []) => {
    await deps.runs.settle(runId, outcomes, await sourcesOf(outcomes), records, fence);
  };
  const noFlush = async () => undefined;
  const resettle = async (outcomes: RowOutcome[]) => {
    // The requests that decided these rows are in the record first: the last one ends the round,
    // and the summary `approve` prints then counts them (as a settle adds them, request-counts.ts).
    await deps.runs.flushRequestCounts(runId);
    await held.resettle(runId, outcomes, await sourcesOf(outcomes), fence);
  };
  switch (mode) {
    case 'write': {
      // A row that wrote settles right after its write, with its records, in one step (a worker
      // killed mid-chunk leaves no write whose outcome is lost); the others settle in one batch.
      // Rows that finish together share that step (settle-batch.ts).
      const unwritten: { outcomes: RowOutcome[]; records: RowWrite[] } = { outcomes: [], records: [] };
      const written = new SettleBatch(settle, SETTLE_HOLD);
      // A guarded run's `apply`: an update its plan did not see (a create whose product another run
      // made meanwhile) meets the row guard here. A dry run's updates all meet it (it plans none).
      const heldUpdate = wouldHoldUpdate(spec) ?? heldAtWrite(deps, runId, spec);
      return {
        todo: unsettled,
        handle: async (context, row, lookup) => {
          const turn = written.begin();
          const records: RowWrite[] = [];
          let outcome: RowOutcome;
          try {
            outcome = await syncRow({ ...context, rowWrites: records, heldUpdate }, row, lookup);
          } catch (error) {
            // A pause after a write that was recorded in memory only: its record still goes.
            if (records.length > 0) await turn.add([], records);
            else turn.end();
            throw error;
          }
          if (!UNWRITTEN.has(outcome.action)) return turn.add([outcome], records);
          turn.end();
          unwritten.outcomes.push(outcome);
          unwritten.records.push(...records);
        },
        settle,
        flush: async () => {
          const { outcomes, records } = unwritten;
          unwritten.outcomes = [];
          unwritten.records = [];
          await settle(outcomes, records);
        },
      };
    }
    case 'plan': {
      // A chunk's plans and its rows that need no write are recorded together at its end, in one
      // step each (as a write chunk's unwritten rows are): per row, they cost a nightly `--missing`
      // run, planned first, four times the Redis commands of the same run unplanned. A chunk tried
      // again plans the rows it had not recorded identically.
      const plannedWrites: PlannedWrite[] = [];
      const unwritten: RowOutcome[] = [];
      return {
        // A planned row waits for the decision: a chunk tried again leaves it to that.
        todo: async (rows) => {
          const left = await unsettled(rows);
          const planned = await plans.get(
            runId,
            left.map((row) => row.row),
          );
          return left.filter((row) => !planned.has(row.row));
        },
        handle: async (context, row, lookup) => {
          const write = planWrite(context, spec, row, lookup);
          // What needs no write (unchanged, invalid, skipped) settles: syncRow sends nothing for it.
          const source = sources.get(row.row);
          if (write) plannedWrites.push(source ? { ...write, source } : write);
          else unwritten.push(await syncRow(context, row, lookup));
        },
        settle,
        flush: async () => {
          const writes = plannedWrites.splice(0);
          const outcomes = unwritten.splice(0);
          if (writes.length > 0) await plans.record(runId, writes);
          if (outcomes.length > 0) await settle(outcomes);
        },
      };
    }
    case 'approve':
      return {
        // A held row whose product a later run wrote since settles here, unwritten (its note names
        // that run): what that run wrote is newer than what this one held (guards/superseded.ts).
        todo: async (rows) => {
          const still = await held.heldAmong(
            runId,
            rows.map((row) => row.row),
          );
          const heldRows = rows.filter((row) => still.has(row.row));
          const writes = await plans.get(
            runId,
            heldRows.map((row) => row.row),
          );
          const superseded = await supersededOutcomes(deps, spec, heldRows, writes);
          await resettle(superseded.outcomes);
          // Less the fields a later run wrote since: what it sent is newer.
          return superseded.rows;
        },
        handle: async (context, row, lookup) => {
          const [write] = (await plans.get(runId, [row.row])).values();
          const replanned = write && !samePlan(context, write, row, lookup);
          const outcome = await syncRow(context, row, lookup);
          await resettle([replanned ? withReplanNote(outcome) : outcome]);
        },
        settle: async (outcomes) => {
          await resettle(outcomes);
        },
        flush: noFlush,
      };
  }
}
