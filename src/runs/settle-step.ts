import type { Redis } from 'ioredis';
import type { RowOutcome } from '../interfaces.js';
import { SLICE_SCRIPTS } from '../redis/lua-slices.js';
import { defineScripts, queueScript } from '../redis/scripts.js';
import { WriteList } from '../redis/write-list.js';
import type { RedisKeys } from './keys.js';
import { encodeOutcome } from './outcome-codec.js';
import { StoredSources } from './parent-sources.js';
import type { RequestCounts } from './request-counts.js';
import { SETTLE } from './run-scripts.js';
import { gatherRowWrites, type RowWrite } from './settle-batch.js';
import { fenceArgs, type SettleFence } from './settle-fence.js';
import type { RowSource } from './source-rows.js';
import { queueWrittenKeys } from './written-keys.js';

/** What one settle step writes: the rows' outcomes, their source values, what their writes record. */
export interface SettleRows {
  outcomes: RowOutcome[];
  /** The rows' raw values, kept for each row that settles failed (`report --failed-only`). */
  sources?: ReadonlyMap<number, RowSource> | undefined;
  records: readonly RowWrite[];
  /** A chunk attempt's job lock: its rows settle only while no other attempt holds it (chunk-hold.ts). */
  fence?: SettleFence | undefined;
}

/**
 * A row's six values in the settle scripts' ARGV (SETTLE here, RESETTLE in guards/held-rows.ts): its
 * number, its encoded outcome, action, status and product id, and its source values when it failed
 * (kept for `report --failed-only`; '' otherwise).
 */
export function settleRowArgs(
  row: number,
  outcome: RowOutcome,
  stored: StoredSources,
  source: RowSource | undefined,
): string[] {
  return [
    String(row),
    encodeOutcome(outcome),
    outcome.action,
    outcome.status,
    outcome.productId ?? '',
    stored.json(outcome.status === 'failed' ? source : undefined),
  ];
}

/**
 * The settle's one round trip (RunStore.settle): the parents' source values, the keys of the
 * products written, then the SETTLE script with the requests counted so far (`counts`, put back if
 * the step fails). Resolves to the rows settled now, the run's settled count, and the indexes of the
 * outcomes this step settled first.
 */
export async function runSettle(
  redis: Redis,
  keys: RedisKeys,
  id: string,
  counts: ReturnType<RequestCounts['take']>,
  { outcomes, sources, records, fence }: SettleRows,
): Promise<{ settledNow: number; settled: number; fresh: number[] }> {
  const args: string[] = [];
  const stored = new StoredSources(keys.parentSources(id));
  for (const outcome of outcomes) {
    if (outcome.row === null)
      throw new Error('settle() takes source rows; missing lines are added at the end');
    args.push(...settleRowArgs(outcome.row, outcome, stored, sources?.get(outcome.row)));
  }
  // One round trip and one step: the requests counted so far, what the writes record, then the rows
  // they decided (a write's record and its row's outcome land together or not at all). The parents'
  // values go first, apart: written once each (HSETNX), whatever happens after; the keys of the
  // products written too (written-keys.ts): their writes were answered already.
  const writes = new WriteList();
  gatherRowWrites(writes, records);
  defineScripts(redis, SETTLE, ...SLICE_SCRIPTS);
  const pipeline = redis.pipeline();
  stored.queue(pipeline);
  queueWrittenKeys(pipeline, keys, id, outcomes);
  const [lockKey, tokens] = fenceArgs(fence, keys.run(id));
  const fixedKeys = [keys.outcomes(id), keys.run(id), keys.touched(id), keys.failedSources(id), lockKey];
  const scriptKeys = [...fixedKeys, ...writes.keys];
  const header = [String(counts.requests), String(counts.writes), String(writes.args.length), tokens];
  queueScript(pipeline, SETTLE, scriptKeys.length, ...scriptKeys, ...header, ...writes.args, ...args);
  let answers: [Error | null, unknown][];
  try {
    answers = (await pipeline.exec()) ?? [];
  } catch (error) {
    counts.putBack();
    throw error;
  }
  const [scriptError, answer] = answers.at(-1) ?? [new Error('Redis gave no answer to the settle')];
  if (scriptError) counts.putBack();
  for (const [error] of answers) if (error) throw error;
  const [settledNow, settled, fresh] = answer as [number, number, number[]];
  return { settledNow, settled, fresh };
}
