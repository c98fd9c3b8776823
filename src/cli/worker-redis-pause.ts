import type { SellerWorkers } from '../queue/seller-workers.js';
import type { RedisFaultError } from '../redis/health.js';
import { queuedNeed, redisFaultLine } from './redis-room.js';
import type { Runtime } from './runtime.js';

export interface RedisPauseOptions {
  /** How often a paused worker tries a write to learn whether Redis takes writes again. */
  probeMs?: number;
  /** How often it says, while paused, why. */
  logEveryMs?: number;
}

/**
 * A worker and a Redis that refuses writes (issue 18): the first refused write pauses every queue
 * of this process (no new job; a job in progress stops at its next request and goes back to
 * waiting), the cause is logged once a minute, not once per chunk, and a small write is tried every
 * few seconds; once it is taken, the queues go on. Returns how to stop watching.
 */
export function pauseWhileRedisRefuses(
  runtime: Runtime,
  workers: SellerWorkers,
  options: RedisPauseOptions = {},
): () => void {
  const probeMs = options.probeMs ?? 2000;
  const logEveryMs = options.logEveryMs ?? 60_000;
  let lastLog = Number.NEGATIVE_INFINITY;
  let probing: NodeJS.Timeout | null = null;
  // On a cluster this probes the master of the global slot only: one refused write elsewhere is
  // met again by the job that retries it after the pause.
  const probeKey = runtime.keys.writeProbe;

  const say = async () => {
    const fault = runtime.health.fault;
    if (!fault || Date.now() - lastLog < logEveryMs) return;
    lastLog = Date.now();
    const need = fault.kind === 'full' ? await queuedNeed(runtime).catch(() => null) : null;
    runtime.logger.error(await redisFaultLine(runtime, fault, need, 'worker'));
  };
  const probe = async () => {
    try {
      await runtime.redis.set(probeKey, String(Date.now()), 'PX', 10_000);
    } catch (error) {
      runtime.health.note(error);
      await say();
      return;
    }
    if (probing) clearInterval(probing);
    probing = null;
    runtime.health.clear();
    workers.resume();
    runtime.logger.info('Redis takes writes again: taking jobs again');
  };
  const onFault = (fault: RedisFaultError) => {
    // A lost run is that run's matter (the chunk processor ends its jobs); other runs go on.
    if (fault.kind === 'lost') {
      runtime.logger.error(
        { run: fault.runId },
        `Redis lost run ${fault.runId}'s state, probably a restart without persistence: its rows are not synced; run it again`,
      );
      return;
    }
    workers.pause().catch(() => undefined);
    // A permission the user lacks is no wait: the worker ends with its line (worker.ts).
    if (fault.kind === 'denied') return;
    say().catch(() => undefined);
    probing ??= setInterval(() => {
      probe().catch(() => undefined);
    }, probeMs);
  };
  const stopListening = runtime.health.onFault(onFault);
  if (runtime.health.fault) onFault(runtime.health.fault);
  return () => {
    stopListening();
    if (probing) clearInterval(probing);
  };
}
