import type { ChainableCommander, Redis } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RowAction, RowOutcome } from '../interfaces.js';
import type { RedisKeys } from './keys.js';

/**
 * A row settled with one of these, `ok`, left its product showing what the run's source says in the
 * fields the run sends: created, updated, or found so already. Any other outcome (invalid, failed,
 * skipped, held, a run cancelled before the row) wrote nothing of it.
 */
const WRITTEN: ReadonlySet<RowAction> = new Set<RowAction>(['create', 'update', 'unchanged']);

/** The match keys of the outcomes whose product now shows what the run's source says. */
export function writtenKeysOf(outcomes: readonly RowOutcome[]): string[] {
  return outcomes
    .filter((outcome) => outcome.status === 'ok' && WRITTEN.has(outcome.action) && outcome.row !== null)
    .map((outcome) => outcome.key);
}

/**
 * Adds the written keys of these outcomes to the run's set (keys.writtenKeys): what an `approve` of
 * an earlier held run asks (later-source-runs.ts). Queued before the outcomes' own settle: the
 * writes were answered already, so the set says what happened even if the settle is lost.
 */
export function queueWrittenKeys(
  step: ChainableCommander,
  keys: RedisKeys,
  runId: string,
  outcomes: readonly RowOutcome[],
): void {
  const written = writtenKeysOf(outcomes);
  if (written.length === 0) return;
  step.sadd(keys.writtenKeys(runId), ...written).expire(keys.writtenKeys(runId), RUN_TTL_SECONDS);
}

/** queueWrittenKeys, sent at once (an approve's re-settled rows, held-rows.ts). */
export async function recordWrittenKeys(
  redis: Redis,
  keys: RedisKeys,
  runId: string,
  outcomes: readonly RowOutcome[],
): Promise<void> {
  const step = redis.multi();
  queueWrittenKeys(step, keys, runId, outcomes);
  if (writtenKeysOf(outcomes).length > 0) await step.exec();
  else step.discard();
}
