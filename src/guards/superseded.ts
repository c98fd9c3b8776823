import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import type { PlannedWrite } from '../plan/plan-store.js';
import { laterSourceRuns } from '../runs/later-source-runs.js';
import type { RunRecord } from '../runs/run-store.js';

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
  const later = await laterSourceRuns(deps, run, [...new Set(rows.map((row) => row.key))], {
    unsold: true,
  });
  return rows.flatMap((row) => {
    const by = later.get(row.key);
    if (by === undefined) return [];
    return [
      {
        row: row.row,
        key: row.key,
        action: 'skipped',
        productId: plans.get(row.row)?.productId ?? null,
        status: 'ok',
        error: '',
        note: `superseded by run ${by}, whose source has it: not written`,
      },
    ];
  });
}
