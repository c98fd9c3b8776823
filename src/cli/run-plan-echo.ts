import { keptPlanLine } from '../plan/said-plan.js';
import type { RunRecord } from '../runs/run-store.js';
import { terminalSafe } from '../terminal-safe.js';
import type { Runtime } from './runtime.js';

/**
 * The plan line of the run a `run` waits for, printed once on its own stdout (docs/running.md:
 * "Before its first write every run prints … its plan"). Said at once when a worker of this process
 * reads the run's list; when another process's worker does (a `worker`, or another `run` serving the
 * seller took the first chunk), the line that reader kept in the run's record is printed as soon as
 * the wait sees it, and before the summary at the latest: the other process's log is not this one's.
 */
export class RunPlanEcho {
  private said = false;

  constructor(
    private readonly out: { write(text: string): unknown },
    private readonly runId: () => string | null,
  ) {}

  /** A worker of this process said the plan of `runId`. */
  heard(runId: string, line: string): void {
    if (runId === this.runId()) this.say(line);
  }

  /** A look of the wait at the run: its plan, if another process's worker said it. */
  async look(runtime: Pick<Runtime, 'redis' | 'keys'>, run: RunRecord): Promise<void> {
    // Not before the run is begun: its list is read after (a dry run's plan is in its summary).
    if (this.said || run.id !== this.runId() || run.dryRun || run.state === 'queued') return;
    // A look that fails (Redis away) is the wait's to meet; the next look tries again.
    const line = await keptPlanLine(runtime.redis, runtime.keys, run.id).catch(() => null);
    if (line) this.say(line);
  }

  private say(line: string): void {
    if (this.said) return;
    this.said = true;
    this.out.write(`${terminalSafe(line)}\n`);
  }
}
