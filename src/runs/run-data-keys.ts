import { FORMER_KEY_FORM_INDEXES, type RedisKeys } from './keys.js';

// What a run that ended keeps (issue 12: Redis kept per product). After the end, only `report`,
// `report --failed-only`, `status`, `revert` and the dashboard read a run: they read the record,
// `outcomes`, `missing`, `failed-sources`, `parent-sources` and `replaced`. The run's copy of the
// seller's products, its key lookups, the rows it touched or created and its guard plan serve only
// while it runs, and are deleted when it ends. A run held by a guard has not ended: `approve` needs
// them. Each key of a run's data is named once here, in one of the two lists.

/**
 * The run's data that only a running run reads. `source-keys`, `unsold-keys` and `written-keys` are
 * apart: `approve` of an earlier held run asks later runs' (later-source-runs.ts).
 */
export function runningOnlyKeys(keys: RedisKeys, id: string): string[] {
  return [
    keys.products(id),
    keys.keyToId(id),
    keys.idToKey(id),
    ...FORMER_KEY_FORM_INDEXES.map((form) => keys.formerFormKeys(id, form)),
    keys.touched(id),
    keys.createdKeys(id),
    keys.plan(id),
    keys.planParents(id),
    keys.deactivationClaims(id),
    keys.approvalsGivenBack(id),
  ];
}

/**
 * The run's data that only a run whose list read found products without a SKU unknown to the tool,
 * or (matched by another field) products with a SKU, writes (RunRecord.lookalikeGuarded,
 * guards/lookalike-creates.ts, guards/listed-key-creates.ts): given the run's lifetime when
 * written and not renewed with the rest (it serves until every row is planned), so that no other
 * run pays a command for it; dropped at the end with what only a running run reads.
 */
export function lookalikeKeys(keys: RedisKeys, id: string): string[] {
  return [keys.unrecordedNames(id), keys.listedKeys(id), keys.lookalikes(id)];
}

/**
 * The run's data an ended run keeps for its 7 days (`source-keys`, `unsold-keys` and `written-keys`
 * while an earlier held run may ask).
 */
export function keptAfterEndKeys(keys: RedisKeys, id: string): string[] {
  return [
    keys.outcomes(id),
    keys.replaced(id),
    keys.sourceKeys(id),
    keys.unsoldKeys(id),
    keys.writtenKeys(id),
    keys.missing(id),
    keys.missingUnsorted(id),
    keys.deactivations(id),
    keys.failedSources(id),
    keys.parentSources(id),
  ];
}

/** Every key of a run's data besides its record: they get the run's lifetime together. */
export function runDataKeys(keys: RedisKeys, id: string): string[] {
  return [...keptAfterEndKeys(keys, id), ...runningOnlyKeys(keys, id)];
}
