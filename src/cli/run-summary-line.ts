import type { Logger } from '../logger.js';
import { endedState } from '../runs/ended-state.js';
import type { RunRecord } from '../runs/run-store.js';
import { runCounts } from '../runs/summary.js';

/**
 * Without a terminal (cron, a pipe, a log collector), `run` ends with one structured line on stderr
 * besides the printed summary: JSON (unless LOG_FORMAT=pretty) with the run id, state and counts.
 * `outcome` says why `run` stopped waiting (done, paused, unauthorized, unreachable, superseded).
 */
export function logRunSummary(
  stderr: NodeJS.WritableStream,
  logger: Logger,
  run: RunRecord,
  outcome: string,
  exitCode: number,
): void {
  if ((stderr as NodeJS.WriteStream).isTTY === true) return;
  logger.info(
    {
      run: run.id,
      // A run ended early, or refused by its list read, is `done` in its record: said as `status`
      // says it (`ended-early`, `refused`), with why.
      ...endedState(run),
      // A run that a newer read of its source superseded (queue/supersede.ts) says which.
      outcome: run.supersededBy ? 'superseded' : outcome,
      ...(run.supersededBy ? { supersededBy: run.supersededBy } : {}),
      exitCode,
      rows: run.total,
      ...runCounts(run),
      requests: run.requests,
      writes: run.writes,
      // Lower bounds: a process serving the run died before it had added its counts.
      ...(run.requestsAtLeast ? { requestsAtLeast: true } : {}),
    },
    'run summary',
  );
}
