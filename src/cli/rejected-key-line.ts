import { ownConnection, resumeCommand } from '../runs/connection-words.js';
import type { RunRecord } from '../runs/run-store.js';
import { runCounts } from '../runs/summary.js';
import { keyHasHistory } from '../sellers/key-holder.js';
import { sellerRef } from '../sellers/seller-ref.js';
import type { PreparedRun } from './prepare-run.js';
import type { CliIo } from './program.js';
import type { Runtime } from './runtime.js';

/**
 * Whether the run's key leads to a seller that is an account in its own right, read before the run
 * is created: a name, or anything recorded under its ref (runs, id map, limits, links: the judgement
 * `resume` makes of a key's own seller, key-holder.ts). Read before, because the run itself lists
 * itself under the ref and records the fields it sends: a mistyped key's first run would make it
 * look known. Two commands per run for a seller with runs (never per row); none for a named seller.
 *
 * An earlier run of the same mistyped key counts as a record too: then `run`'s 401 line names
 * `resume`, which refuses, in one line, a working key that already serves another seller, and
 * names the runs to cancel. The other mistake would cost more: told to cancel and run again, the
 * owner of a revoked key would start a new seller with the new key, its history left behind.
 */
export async function keyHadHistory(
  io: CliIo,
  runtime: Runtime,
  spec: PreparedRun['spec'],
): Promise<boolean> {
  if (spec.sellerName !== undefined) return true;
  const key = io.env[spec.keyEnv]?.trim();
  // No key to fingerprint: the ref itself is the only one it could be.
  const fingerprint = key ? sellerRef(spec.baseUrl, key) : spec.sellerRef;
  return keyHasHistory(runtime.redis, runtime.keys, spec.sellerRef, fingerprint);
}

/**
 * What to do after a 401. A seller with anything recorded before this run (`known`: keyHadHistory),
 * or whose key this very run got answers with (rows written or matched: revoked half way), had a key
 * that worked: the key was revoked or changed, and `resume` with the new one keeps its queue and id
 * map. A key under which nothing was ever recorded is most likely mistyped: the right key has its
 * own seller, whose id map knows its products, so the run is dropped and run again with it (linking
 * the right key to this empty seller would create the catalog again; `resume` refuses it anyway).
 */
export async function rejectedKeyLine(
  runtime: Runtime,
  spec: PreparedRun['spec'],
  run: RunRecord,
  /** A dry run ended as `run` stopped serving it: nothing of it stays queued. */
  ended: boolean,
  known: boolean,
): Promise<string> {
  const id = run.id;
  const cancel = `catalog-sync cancel ${id}`;
  const worked = known || answered(run) || (await runtime.registry.productsRecorded(spec.sellerRef)) > 0;
  if (!worked) {
    return (
      `catalog-sync: the API key was rejected (401), and nothing was ever recorded under it (no earlier run, no product: mistyped?). ` +
      (ended
        ? `Dry run ${id} is ended (nothing was written); run it again with the right key`
        : `Run ${id}'s rows stay queued; drop them with ${cancel}, then run again with the right key`)
    );
  }
  // The run's own options (its operator's): the hint works as printed from a shell without cron's variables.
  const resume = resumeCommand(spec, spec.keyEnv, ownConnection(spec));
  if (ended) {
    const dry = `catalog-sync: the API key was rejected (401). Dry run ${id} is ended (nothing was written); fix the key in ${spec.keyEnv}`;
    // Its 401 paused no seller (own-queue-401.ts), unless another process's paused it: `resume` then.
    if ((await runtime.sellers.status(spec.sellerRef, spec.dailyReset)).authRejected)
      return `${dry} (a revoked one: put the new key there), then: ${resume}, and run it again`;
    // A named seller takes a new key with `--seller NAME`; one known by its key only, with `resume`.
    return spec.sellerName !== undefined
      ? `${dry} (a revoked one: put the new key there), and run it again`
      : `${dry} (a revoked one: put the new key there, and link it to the seller once: ${resume}), and run it again`;
  }
  return (
    `catalog-sync: the API key was rejected (401). Run ${id}'s rows stay queued; fix the key in ${spec.keyEnv} ` +
    `(a revoked one: put the new key there), then: ${resume} (or drop the run: ${cancel})`
  );
}

/** Rows of the run that the API answered for (written, matched, or planned from its list). */
function answered(run: RunRecord): boolean {
  const c = runCounts(run);
  return c.created + c.updated + c.unchanged + c.toCreate + c.toUpdate > 0;
}
