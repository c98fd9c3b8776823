import type { Redis } from 'ioredis';
import type { RedisKeys } from '../runs/keys.js';
import { WOULD_HOLD_MARK } from '../runs/run-scripts.js';
import type { RunRecord, RunSpec } from '../runs/run-store.js';
import type { HeldUpdate } from '../sync/row-sync-context.js';
import { productsWeighedAgainst } from './decide.js';
import { updateWrite } from './planned-writes.js';
import { rowGuardReason, wholeRunReasons } from './verdict.js';

/*
 * A dry run holds nothing, but it weighs every guard the real run would (docs/options.md: "When the
 * real run would be held, the dry run's summary says so and why"), from what it reads anyway: no
 * request more. `--max-missing`, rows with no key (missing/verdict.ts) and look-alike creates
 * (lookalike-creates.ts) are weighed where the real run weighs them; this is the rest:
 * `--max-price-change` at each update (the row stays `planned`, its note saying the real run would
 * hold it and why) and `--max-invalid` and `--max-updates` once every row settled. Its exit code stays
 * that of a run that holds nothing (docs/options.md): exit 5 means writes wait for `approve`.
 */

/** Run record field: the whole-run guards (`--max-invalid`, `--max-updates`) a dry run trips. */
export const GUARDS_WOULD_HOLD = 'guardsWouldHold';

/** Run record field: the rows `--max-price-change` would hold in the real run, as its hold says it. */
export const PRICES_WOULD_HOLD = 'pricesWouldHold';

/**
 * For a dry run with `--max-price-change`: the note of an update the real run would hold, weighed as
 * its plan weighs it (planned-writes.ts updateWrite), in the words of its hold (`a run without
 * --dry-run would hold it: price 200 → 600 (+200%) exceeds --max-price-change 50%`), or null.
 * Undefined for any other run.
 */
export function wouldHoldUpdate(spec: RunSpec): HeldUpdate | undefined {
  if (!spec.dryRun || !spec.maxPriceChange) return undefined;
  return async (upsert, remote, fields, known) => {
    const reason = updateWrite(spec, upsert, remote, fields, known).heldFor;
    return reason === undefined ? null : `${WOULD_HOLD_MARK}: ${reason}`;
  };
}

/**
 * Once a dry run's rows settled, recorded for its summary in the words of the real run's hold: the
 * rows `--max-price-change` would hold (counted by their note, run-scripts.ts), and the whole-run
 * guards its figures trip, as the real run's verdict words them (guards/decide.ts). As the real run,
 * it is held whole only when it has a write to hold: a create, an update, or a deactivation
 * (`deactivations`, those due).
 */
export async function noteGuardsWouldHold(
  deps: { redis: Redis; keys: RedisKeys },
  run: RunRecord,
  deactivations: number,
): Promise<void> {
  if (!run.dryRun) return;
  const count = (name: string) => run.counts[name] ?? 0;
  const heldRows = count('notes:would-hold');
  if (heldRows > 0)
    await deps.redis.hset(deps.keys.run(run.id), PRICES_WOULD_HOLD, rowGuardReason(run, heldRows));
  if (!(run.maxInvalid || run.maxUpdates)) return;
  const writes = count('pair:create:planned') + count('pair:update:planned') + deactivations;
  if (writes === 0) return;
  const reasons = wholeRunReasons(run, {
    rows: run.total,
    invalid: count('action:invalid'),
    // Those the row guard would hold too: the feed asks for them (as the real run counts them).
    updates: count('pair:update:planned'),
    listed: await productsWeighedAgainst(deps, run),
    missing: null,
  });
  if (reasons.length > 0) await deps.redis.hset(deps.keys.run(run.id), GUARDS_WOULD_HOLD, reasons.join('; '));
}
