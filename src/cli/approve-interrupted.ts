import type { RunRecord } from '../runs/run-store.js';
import { closeWithinDeadline } from './close-deadline.js';
import type { Runtime } from './runtime.js';

/**
 * The one line of an `approve` interrupted once its writes were queued, said after its workers
 * closed (they send nothing new once interrupted, sync/sending-stopped.ts, and the writes in flight
 * settle): what the run's record says then, the rows of the round settled and those still queued,
 * so that a cron mail never reads "stay queued" for rows that were sent.
 */
export async function approveInterruptedLine(
  runtime: Pick<Runtime, 'runs' | 'commands' | 'keys' | 'redis' | 'config'>,
  signal: string,
  runId: string,
  closing: Promise<unknown>,
): Promise<string> {
  await closeWithinDeadline(runtime, closing);
  const [run, count] = await Promise.all([
    runtime.runs.get(runId),
    runtime.commands.hget(runtime.keys.run(runId), 'approvalCount'),
  ]);
  return approveInterruptedText(signal, runId, run, Number(count ?? 0));
}

/** approveInterruptedLine's words, from the run's record and the count of rows its round approved. */
export function approveInterruptedText(
  signal: string,
  runId: string,
  run: Pick<RunRecord, 'state' | 'approvedQueued'> | null,
  approved: number,
): string {
  const goesOn = `go on with any \`catalog-sync worker\` or another \`catalog-sync approve ${runId}\``;
  const left = run?.approvedQueued ?? 0;
  if (run?.state === 'running' && left > 0) {
    const stay =
      left === 1
        ? `1 stays queued and ${goesOn.replace(/^go /, 'goes ')}`
        : `${left} stay queued and ${goesOn}`;
    // Without the round's count (a record from before it was kept): only what stays queued.
    if (approved < left)
      return `catalog-sync: interrupted (${signal}): of the approved rows of run ${runId}, ${stay}.\n`;
    return `catalog-sync: interrupted (${signal}): ${approved - left} of the ${approved} approved rows of run ${runId} settled before it stopped, ${stay}.\n`;
  }
  if (run && run.state !== 'running')
    return `catalog-sync: interrupted (${signal}): every approved row of run ${runId} settled before it stopped: the run is ${run.state} (\`catalog-sync report ${runId}\`).\n`;
  return `catalog-sync: interrupted (${signal}): the approved rows of run ${runId} stay queued and ${goesOn}.\n`;
}
