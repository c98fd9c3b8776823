import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import { type PlannedWrite, PlanStore } from '../plan/plan-store.js';
import { laterSourceRuns } from '../runs/later-source-runs.js';
import type { RunRecord } from '../runs/run-store.js';
import { HeldRows } from './held-rows.js';

type LaterDeps = Parameters<typeof laterSourceRuns>[0];

/**
 * Of the held rows an `approve` sends, those whose product a later run of the seller (not a dry
 * run) read in its source: that run wrote what the source says since, and this run's held write
 * would put an older value back over it. Each settles without a write, `skipped` (status ok), its
 * note naming that run, as a held deactivation whose product came back into the source does.
 */
export async function supersededOutcomes(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  rows: readonly ProductUpsert[],
  plans: ReadonlyMap<number, PlannedWrite>,
): Promise<RowOutcome[]> {
  return (await superseded(deps, run, rows, plans)).map(({ outcome }) => outcome);
}

async function superseded(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  rows: readonly ProductUpsert[],
  plans: ReadonlyMap<number, PlannedWrite>,
): Promise<Array<{ outcome: RowOutcome; by: string }>> {
  const later = await laterSourceRuns(deps, run, [...new Set(rows.map((row) => row.key))], {
    unsold: true,
  });
  return rows.flatMap((row) => {
    const by = later.get(row.key);
    if (by === undefined) return [];
    const outcome: RowOutcome = {
      row: row.row,
      key: row.key,
      action: 'skipped',
      productId: plans.get(row.row)?.productId ?? null,
      status: 'ok',
      error: '',
      note: `superseded by run ${by}, whose source has it: not written`,
    };
    return [{ outcome, by }];
  });
}

/** Held rows are looked at this many at a time. */
const BATCH = 1000;

/**
 * Settles, before anything is queued, the superseded ones among the held rows an `approve` round
 * sends (supersededOutcomes): the question needs only Redis, so a round whose every row is
 * superseded reads no product and sends nothing. Resolves to the rows it settled, and how many by
 * each later run. The approve chunks ask again (a run may read the source meanwhile).
 */
export async function settleSuperseded(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  rows: Iterable<number> | AsyncIterable<number>,
): Promise<{ rows: Set<number>; byRun: Map<string, number> }> {
  const held = new HeldRows(deps.redis, deps.keys);
  const plans = new PlanStore(deps.redis, deps.keys);
  const settled = new Set<number>();
  const byRun = new Map<string, number>();
  let batch: number[] = [];
  const flush = async () => {
    const writes = await plans.get(run.id, [...(await held.heldAmong(run.id, batch))]);
    batch = [];
    const found = await superseded(
      deps,
      run,
      [...writes.values()].map((write) => write.upsert),
      writes,
    );
    await held.resettle(
      run.id,
      found.map(({ outcome }) => outcome),
    );
    for (const { outcome, by } of found) {
      if (outcome.row !== null) settled.add(outcome.row);
      byRun.set(by, (byRun.get(by) ?? 0) + 1);
    }
  };
  // A row settled here is behind `held.all`'s reading: the rows still to come are not changed.
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return { rows: settled, byRun };
}
