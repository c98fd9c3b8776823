import type { ProductUpsert, RowOutcome } from '../interfaces.js';
import { type PlannedWrite, PlanStore } from '../plan/plan-store.js';
import { laterRunOngoing, laterSourceRuns } from '../runs/later-source-runs.js';
import type { RunRecord } from '../runs/run-store.js';
import { UsageError } from '../usage-error.js';
import { HeldRows } from './held-rows.js';

type LaterDeps = Parameters<typeof laterSourceRuns>[0];

/**
 * Of the held rows an `approve` sends, those whose product a later run of the seller (not a dry
 * run) wrote since, in every field the held write changes: this run's held write would put an older
 * value back over it. Each settles without a write, `skipped` (status ok), its note naming that
 * run, as a held deactivation whose product came back into the source does. A later run that read
 * the product and did not write it (cancelled, refused, the row invalid or failed, the field not
 * sent) supersedes nothing: the approved write goes (later-source-runs.ts). `rows`: the others, to
 * send, less the fields a later run wrote (`--fields name` after a held price: the price goes, the
 * name that run sent stays).
 */
export async function supersededOutcomes(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  rows: readonly ProductUpsert[],
  plans: ReadonlyMap<number, PlannedWrite>,
): Promise<{ outcomes: RowOutcome[]; rows: ProductUpsert[] }> {
  const { found, fieldsWritten } = await superseded(deps, run, rows, plans);
  const settled = new Set(found.map(({ outcome }) => outcome.row));
  return {
    outcomes: found.map(({ outcome }) => outcome),
    rows: rows
      .filter((row) => !settled.has(row.row))
      .map((row) => withoutFields(row, fieldsWritten.get(row.key))),
  };
}

async function superseded(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  rows: readonly ProductUpsert[],
  plans: ReadonlyMap<number, PlannedWrite>,
): Promise<{ found: Array<{ outcome: RowOutcome; by: string }>; fieldsWritten: Map<string, Set<string>> }> {
  const { written, fieldsWritten } = await laterSourceRuns(
    deps,
    run,
    [...new Set(rows.map((row) => row.key))],
    { unsold: true, sends: fieldsOf(rows, plans), holds: fieldsOf(rows) },
  );
  const found = rows.flatMap((row) => {
    const by = written.get(row.key);
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
  return { found, fieldsWritten };
}

/**
 * The fields of each key's rows: those their held writes change (`plans`: an update's changed
 * fields, a create's every one), else those the rows hold. Two rows of one key: both rows'.
 */
function fieldsOf(
  rows: readonly ProductUpsert[],
  plans?: ReadonlyMap<number, PlannedWrite>,
): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  for (const row of rows) {
    const names = Object.keys((plans ? plans.get(row.row)?.fields : undefined) ?? row.fields);
    fields.set(row.key, [...(fields.get(row.key) ?? []), ...names]);
  }
  return fields;
}

/** The row without these fields: a later run wrote them since, its values are newer. */
function withoutFields(row: ProductUpsert, fields: ReadonlySet<string> | undefined): ProductUpsert {
  if (!fields || fields.size === 0) return row;
  return {
    ...row,
    fields: Object.fromEntries(Object.entries(row.fields).filter(([name]) => !fields.has(name))),
  };
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
    const { found } = await superseded(
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

/**
 * Refuses an `approve` (one line, exit 2) while a later run of the seller that read one of the held
 * rows' products in its source is still queued or running and has not written it: its write may
 * still come, after this one or before it, or never (it fails, it is cancelled). Sending now would
 * race it (docs/architecture.md, decision 10: an approval's writes are out of the seller's run
 * order); skipping would lose the approved write if it never comes. Once it ends, what it wrote is
 * known. A run whose source is still being read names only the products read so far.
 */
export async function refuseWhileLaterRunsWrite(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef' | 'total'>,
  rows: readonly number[] | null,
): Promise<void> {
  if (!(await laterRunOngoing(deps, run))) return;
  const held = new HeldRows(deps.redis, deps.keys);
  const plans = new PlanStore(deps.redis, deps.keys);
  let batch: number[] = [];
  const check = async () => {
    const writes = await plans.get(run.id, [...(await held.heldAmong(run.id, batch))]);
    batch = [];
    const upserts = [...writes.values()].map((write) => write.upsert);
    const { pending } = await laterSourceRuns(deps, run, [...new Set(upserts.map((row) => row.key))], {
      unsold: true,
      sends: fieldsOf(upserts, writes),
    });
    const [first] = pending.values();
    if (first === undefined) return;
    const what = pending.size === 1 ? 'a product' : `${pending.size} products`;
    throw new UsageError(
      `run ${first} of the seller is still to write ${what} run ${run.id} holds: ` +
        `approve once it has ended (\`catalog-sync status ${first}\`; \`catalog-sync cancel ${first}\` if it is not to write)`,
    );
  };
  for await (const row of rows ?? held.all(run.id, run.total)) {
    batch.push(row);
    if (batch.length >= BATCH) await check();
  }
  await check();
}
