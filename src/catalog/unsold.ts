import type { SourceState } from './presets/types.js';

/** What of the run decides whether a row not sold in the source is sent (a subset of RowRules). */
export interface UnsoldRules {
  /** `--only-published`: such rows are left out. */
  onlyPublished?: boolean;
  /** `--fields`: undefined sends every field. */
  send?: ReadonlySet<string>;
  /** `--missing` was given: a row left out here is a product the source no longer offers. */
  missing?: boolean;
}

/** Why a row is left out, and whether its product counts as gone from the source. */
export interface LeftOut {
  reason: string;
  /** The run has `--missing`: the key is not among those the source holds (SkippedRow.unsold). */
  unsold: boolean;
}

/**
 * `--only-published` (README, Options of `run` and `import`): a row the source does not sell is never
 * created as if live. It goes out with its `status`, unless the run leaves it out (`--only-published`)
 * or does not send `status` at all (`--fields` without it): then the reason it is skipped.
 *
 * Left out, the row would still hold its key: with `--missing`, the product the seller archived or
 * drafted in the store would stay live on the marketplace, as it was, night after night. The seller
 * took it off sale: for `--missing` the source no longer offers it, exactly as if its row were gone
 * (the `--missing` fields apply, under `--max-missing`; it gets its values back when it is sold
 * again). Without `--missing` nothing changes: the key is held, and no `missing` line is added.
 */
export function leftOutUnsold(state: SourceState, rules: UnsoldRules): LeftOut | undefined {
  if (state.status === 'active') return undefined;
  const reason = rules.onlyPublished
    ? `not sold in the source (${state.says}): left out (--only-published)`
    : rules.send && !rules.send.has('status')
      ? `not sold in the source (${state.says}) and status is not among the fields sent (--fields): not sent, so that it does not go live`
      : undefined;
  if (reason === undefined) return undefined;
  if (!rules.missing) return { reason, unsold: false };
  return { reason: `${reason}; counted as gone from the source (--missing)`, unsold: true };
}
