import { DEFAULT_CHUNK_SIZE } from '../defaults.js';
import { deactivationClaimExpiresAt } from '../missing/deactivation-claims.js';
import { deactivateLine, dueBatches } from '../missing/deactivations.js';
import type { ChunkJobData, DeactivateItem } from '../runs/chunk-job.js';
import { finalisationOver } from '../runs/finalise-claim.js';
import type { RunRecord } from '../runs/run-store.js';
import type { FinaliseDeps } from './finalise.js';

// A run with `--missing` ends once its due deactivations (keys.deactivations) are all settled, each by
// the `deactivate` job that holds it (finalise.ts endAfterDeactivations). A job Redis lost (a
// failover, a partial flush) leaves its products due for good, and the run `running`: the look at an
// idle run (lost-chunks.ts) settles them, as it settles rows no chunk holds.

/** What a deactivation whose queued job Redis lost is reported with: it was never sent. */
export const LOST_DEACTIVATION =
  'not sent: its queued deactivation was lost from Redis (a failover or a flush dropped its job); a re-run of the source with --missing sends it';

/**
 * What one whose job claimed it (deactivation-claims.ts) and was then lost is reported with: its PUT
 * may have reached the API before the job went. A PUT of the `--missing` values twice is harmless,
 * and a re-run finds it `already so` when it went.
 */
export const LOST_DEACTIVATION_MAYBE_SENT =
  'may have been sent: its deactivation was under way when its job was lost from Redis (a failover or a flush dropped it); a re-run of the source with --missing sends it if it did not go';

/**
 * Settles `failed` the run's due deactivations no job holds: not while its deactivations are being
 * queued (its finalisation, or an `approve` of it, not over: what is due then is not queued yet), nor
 * one a live claim holds (a worker whose job vanished under it sends it and settles it). Resolves
 * to how many it settled.
 */
export async function settleLostDeactivations(
  deps: FinaliseDeps,
  run: RunRecord,
  jobs: readonly ChunkJobData[],
  now = Date.now(),
): Promise<number> {
  if (run.approvalUnqueued) return 0;
  const [finalising] = await deps.redis.hmget(deps.keys.run(run.id), 'finalising');
  if (!finalisationOver(finalising)) return 0;
  const busy = new Set(jobs.flatMap((job) => (job.deactivate ?? []).map((item) => item.id)));
  let settled = 0;
  for await (const items of dueBatches(deps, run.id)) {
    const unheld = items.filter((item) => !busy.has(item.id));
    if (unheld.length === 0) continue;
    const lines = await linesOfUnheld(deps, run.id, unheld, now);
    settled += lines.length;
    for (let i = 0; i < lines.length; i += DEFAULT_CHUNK_SIZE)
      await deps.runs.addMissing(run.id, lines.slice(i, i + DEFAULT_CHUNK_SIZE), true);
  }
  return settled;
}

/** Their `failed` lines: `not sent`, or `may have been sent` once claimed; none while a claim lives. */
async function linesOfUnheld(deps: FinaliseDeps, runId: string, items: DeactivateItem[], now: number) {
  const claims = await deps.redis.hmget(deps.keys.deactivationClaims(runId), ...items.map((item) => item.id));
  return items.flatMap((item, i) => {
    const claim = claims[i];
    if (!claim) return [deactivateLine(item, 'failed', LOST_DEACTIVATION)];
    if (deactivationClaimExpiresAt(claim) > now) return [];
    return [deactivateLine(item, 'failed', LOST_DEACTIVATION_MAYBE_SENT)];
  });
}
