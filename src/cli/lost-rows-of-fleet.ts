import { FleetLostRows } from '../queue/fleet-lost-rows.js';
import type { Runtime } from './runtime.js';

/**
 * A `worker`'s watch of its sellers' open runs for rows no chunk holds (queue/fleet-lost-rows.ts),
 * started. Its first look at a run comes after the run has been idle for a job's lock and a stall
 * check, as `run`'s (wait-for-run.ts); the runs are read twice in that time, so a look comes at most
 * half of it late.
 */
export function watchLostRows(runtime: Runtime, served: () => readonly string[]): FleetLostRows {
  const idleMs = runtime.config.lockDurationMs + runtime.config.stallCheckMs;
  const watch = new FleetLostRows(
    {
      // As `run`'s look: BullMQ's connection for the queue it reads, the tool's for the rest.
      ...runtime,
      prefix: runtime.config.prefix,
      now: Date.now,
    },
    served,
    idleMs,
  );
  watch.start(Math.ceil(idleMs / 2));
  return watch;
}
