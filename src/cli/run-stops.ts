import type { CancelDeps } from '../queue/cancel-run.js';
import { closeOwnQueue } from '../queue/own-queue-end.js';
import type { RedisFaultError } from '../redis/health.js';
import type { RunSpec } from '../runs/run-store.js';
import { ExitCode } from './exit-codes.js';
import type { PreparedRun } from './prepare-run.js';
import type { CliIo } from './program.js';
import { redisFaultLine, remainingNeed } from './redis-room.js';
import type { Runtime } from './runtime.js';

/** How `run` (commands/run.ts) tells the ways its wait can stop short of a summary, and tidies after them. */

/** Whether the run's source broke and it is ending (or ended) early; false when Redis cannot say. */
export async function endingEarly(runtime: Runtime, runId: string | null): Promise<boolean> {
  if (runId === null) return false;
  const run = await runtime.runs.get(runId).catch(() => null);
  return run !== null && (run.endingEarly !== undefined || run.aborted);
}

/** A dry run's queue, once this process serves it no more (own-queue-end.ts); a failure is logged. */
export async function closeOwnQueueOf(
  runtime: Runtime,
  deps: CancelDeps,
  spec: RunSpec,
  runId: string | null,
): Promise<void> {
  if (!spec.ownQueue || runId === null) return;
  await closeOwnQueue(deps, runId).catch((error: unknown) =>
    runtime.logger.warn({ run: runId, err: String(error) }, 'could not remove the queue of the dry run'),
  );
}

/** One line for a run stopped by Redis (full, read-only, its state lost): exit 2, rows left queued. */
export async function reportFault(
  io: CliIo,
  runtime: Runtime,
  fault: RedisFaultError,
  runId: string | null,
  prepared: PreparedRun,
): Promise<number> {
  const need = fault.kind === 'full' ? await remainingNeed(runtime.runs, runId, prepared.rowEstimate) : null;
  io.stderr.write(`catalog-sync: ${await redisFaultLine(runtime, fault, need)}\n`);
  return ExitCode.usage;
}
