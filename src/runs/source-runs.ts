import type { ChainableCommander } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { RedisKeys } from './keys.js';
import type { RunSpec } from './run-record.js';

/**
 * The set a run of this source is listed in (RedisKeys.runsOfSource): a file or feed by its address,
 * whatever its content; a store by its sourceId (its address and credentials). Null for standard
 * input, which is never taken for an earlier run's source.
 */
export function runsOfSourceKey(
  keys: RedisKeys,
  spec: Pick<RunSpec, 'sellerRef' | 'sourceId' | 'sourceAddressId'>,
): string | null {
  const sourceKey = spec.sourceAddressId ?? spec.sourceId;
  return sourceKey ? keys.runsOfSource(spec.sellerRef, sourceKey) : null;
}

/**
 * Lists a new run among its source's runs, in the MULTI that creates its record: a run is never
 * found without being listed, however early its process is killed (before it claims the source,
 * while it waits on an earlier reader), so a later run of the source finds it and ends it.
 * The set lives as long as a run's record; a member whose record expired is trimmed here.
 */
export function listAmongSourceRuns(
  multi: ChainableCommander,
  keys: RedisKeys,
  spec: Pick<RunSpec, 'sellerRef' | 'sourceId' | 'sourceAddressId'>,
  runId: string,
  now: number,
): void {
  const key = runsOfSourceKey(keys, spec);
  if (!key) return;
  multi
    .zadd(key, now, runId)
    .zremrangebyscore(key, '-inf', `(${now - RUN_TTL_SECONDS * 1000}`)
    .expire(key, RUN_TTL_SECONDS);
}
