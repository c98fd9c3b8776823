import type { Redis } from 'ioredis';
import type { RedisKeys } from './keys.js';
import type { RunRecord, RunStore } from './run-store.js';

interface LaterDeps {
  redis: Redis;
  keys: RedisKeys;
  runs: RunStore;
}

/** What the seller's later runs did with the keys asked: each key with the first such run's id. */
export interface LaterRuns {
  /**
   * Keys a later run wrote (created, updated, or found as its source says: keys.writtenKeys), in
   * every field the caller's write of it would send: that run's write is newer.
   */
  written: Map<string, string>;
  /**
   * Keys a later run wrote in some of its fields only (its `--fields`, its source's columns), not
   * every one the caller's write sends: those fields, whose values that run wrote since. The
   * caller's write of the key goes, without them.
   */
  fieldsWritten: Map<string, Set<string>>;
  /**
   * Keys a later run not ended yet (queued, running) read in its source and has not written yet:
   * its write may still come, or not (it fails, it is cancelled).
   */
  pending: Map<string, string>;
}

interface LaterOptions {
  /**
   * A key the later run read in a row it left out as not sold counts as written (a held row: that
   * run decided the product is not to be live) once that run ended with its `--missing` applied. A
   * held deactivation does not ask it: for the later run too, that product was gone from the source.
   */
  unsold: boolean;
  /**
   * The fields the caller's write of a key sends: a later run that may not send one of them (its
   * `--fields`, its source's columns) did not write what this write would, and does not supersede
   * it. Absent: any write of the product counts (a deactivation).
   */
  sends?: ReadonlyMap<string, readonly string[]>;
  /** The fields each key's row holds: those a later run wrote are listed in `fieldsWritten`. */
  holds?: ReadonlyMap<string, readonly string[]>;
}

/**
 * Of these match keys, those a later run of the same seller (not a dry run) wrote since `run`, and
 * those it is still to write. Only a write that happened supersedes: a later run that read the key
 * and wrote nothing of it (cancelled before a worker took it, refused, the row invalid, failed,
 * skipped or held, the field not sent) leaves an `approve` of the earlier run to send its write.
 * An `approve` writes none of the written ones: a held deactivation (held-deactivations.ts), nor a
 * held row (guards/superseded.ts). The keys a run read and wrote stay while an earlier run may still
 * be approved (ended-run.ts). One SMISMEMBER per later run and set asked, whatever the keys.
 */
export async function laterSourceRuns(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
  matchKeys: string[],
  options: LaterOptions,
): Promise<LaterRuns> {
  const found: LaterRuns = { written: new Map(), fieldsWritten: new Map(), pending: new Map() };
  if (matchKeys.length === 0) return found;
  // The seller's runs only: every seller's would be a read of a fleet's thousands of runs per chunk.
  const later = await deps.redis.zrangebyscore(
    deps.keys.sellerRuns(run.sellerRef),
    `(${run.createdAt}`,
    '+inf',
  );
  for (const laterId of later) {
    const other = await deps.runs.get(laterId);
    if (!other || other.id === run.id || other.sellerRef !== run.sellerRef || other.dryRun) continue;
    const ongoing = other.state === 'queued' || other.state === 'running';
    const unsoldApplied =
      options.unsold && other.state === 'done' && !other.aborted && !other.missingNotApplied;
    const [written, inSource, leftOut] = await Promise.all([
      deps.redis.smismember(deps.keys.writtenKeys(laterId), ...matchKeys),
      ongoing ? deps.redis.smismember(deps.keys.sourceKeys(laterId), ...matchKeys) : [],
      unsoldApplied ? deps.redis.smismember(deps.keys.unsoldKeys(laterId), ...matchKeys) : [],
    ]);
    const sends = sentBy(other);
    matchKeys.forEach((key, i) => {
      const fields = options.sends?.get(key) ?? [];
      const whole = written[i] === 1 && fields.every(sends);
      if ((whole || leftOut[i] === 1) && !found.written.has(key)) found.written.set(key, laterId);
      else if (written[i] === 1) {
        const some = found.fieldsWritten.get(key) ?? new Set<string>();
        for (const field of options.holds?.get(key) ?? fields)
          if (field !== other.matchBy && sends(field)) some.add(field);
        found.fieldsWritten.set(key, some);
      } else if (ongoing && inSource[i] === 1 && !found.pending.has(key)) found.pending.set(key, laterId);
    });
  }
  for (const key of found.written.keys()) {
    found.pending.delete(key);
    found.fieldsWritten.delete(key);
  }
  return found;
}

/**
 * True when a later run of the seller is not ended yet (queued, running): only then may a key be
 * `pending` (laterSourceRuns). One read of each later run's state, so that the common case (none)
 * costs no read of the held rows.
 */
export async function laterRunOngoing(
  deps: LaterDeps,
  run: Pick<RunRecord, 'id' | 'createdAt' | 'sellerRef'>,
): Promise<boolean> {
  const later = await deps.redis.zrangebyscore(
    deps.keys.sellerRuns(run.sellerRef),
    `(${run.createdAt}`,
    '+inf',
  );
  const states = await Promise.all(
    later.filter((id) => id !== run.id).map((id) => deps.redis.hget(deps.keys.run(id), 'state')),
  );
  return states.some((state) => state === 'queued' || state === 'running');
}

/**
 * Whether a run's write of a product sent this field (its match field names the product, and is
 * taken as sent): its `--fields` and its source's columns say which it may send. A record without
 * them (an older one) is taken to send them all.
 */
function sentBy(other: Pick<RunRecord, 'fields' | 'sentFields' | 'matchBy'>): (field: string) => boolean {
  const allowed = other.fields ? new Set(other.fields) : null;
  const given = other.sentFields ? new Set(other.sentFields) : null;
  return (field) =>
    field === other.matchBy || ((!allowed || allowed.has(field)) && (!given || given.has(field)));
}
