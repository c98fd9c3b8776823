import type { SourceState, SourceStatus } from './presets/types.js';

/** What of the run decides whether a row not sold in the source is sent (a subset of RowRules). */
export interface UnsoldRules {
  /** `--only-published`: such rows are left out. */
  onlyPublished?: boolean;
  /** `--fields`: undefined sends every field. */
  send?: ReadonlySet<string>;
  /** `--missing` was given: a row left out here is a product the source no longer offers. */
  missing?: boolean;
}

const NOT_SOLD: ReadonlySet<string> = new Set<SourceStatus>(['draft', 'private', 'archived', 'hidden']);

/**
 * The published state of a row whose preset reads none (a generic file, a mapping file alone, or a
 * mapping's `status` field beside a preset with no state of its own): its own `status`, which is
 * what the API reads. `active` (in any case) is sold; any other value is not, and the row is treated
 * as a preset's unpublished row (`--only-published` leaves it out, `--fields` without `status`
 * never creates it). Blank: the row does not say, and is sent as any other.
 */
export function stateOfOwnStatus(raw: string | string[] | undefined): SourceState | undefined {
  const text = (Array.isArray(raw) ? raw.join(', ') : raw)?.trim();
  if (!text || text.toLowerCase() === 'active') return undefined;
  const word = text.toLowerCase();
  // The status sent is the row's own text (finishDraft keeps it): this one only says "not sold".
  return { status: NOT_SOLD.has(word) ? (word as SourceStatus) : 'hidden', says: `status ${text}` };
}

/** Why a row is left out, and whether its product counts as gone from the source. */
export interface LeftOut {
  reason: string;
  /** The run has `--missing`: the key is not among those the source holds (SkippedRow.unsold). */
  unsold: boolean;
}

/**
 * `--only-published` (README, Options of `run` and `import`): a row the source does not sell is never
 * created as if live. It goes out with its `status`, unless the run leaves it out (`--only-published`):
 * then the reason it is skipped. One that `--fields` sends without `status` is not left out here: its
 * product, if the marketplace has it, is updated with the fields sent (its status there untouched),
 * and only its create is skipped (ProductUpsert.notSold, unsoldNotCreated).
 *
 * Left out, the row would still hold its key: with `--missing`, the product the seller archived or
 * drafted in the store would stay live on the marketplace, as it was, night after night. The seller
 * took it off sale: for `--missing` the source no longer offers it, exactly as if its row were gone
 * (the `--missing` fields apply, under `--max-missing`; it gets its values back when it is sold
 * again). Without `--missing` nothing changes: the key is held, and no `missing` line is added.
 */
export function leftOutUnsold(state: SourceState, rules: UnsoldRules): LeftOut | undefined {
  if (state.status === 'active' || !rules.onlyPublished) return undefined;
  const reason = `not sold in the source (${state.says}): left out (--only-published)`;
  if (!rules.missing) return { reason, unsold: false };
  return { reason: `${reason}; counted as gone from the source (--missing)`, unsold: true };
}

/**
 * A row not sold in the source whose `status` the run does not send (`--fields` without it): what the
 * source says of it (ProductUpsert.notSold), or undefined for a row sent as any other. Such a row
 * holds its key: its product is updated, not gone from the source, so `--missing` leaves it alone.
 */
export function notSoldWithoutStatus(state: SourceState, rules: UnsoldRules): string | undefined {
  if (state.status === 'active' || !rules.send || rules.send.has('status')) return undefined;
  return state.says;
}

/** The reason a create of such a row is skipped: sent without its status, it could only go out live. */
export function unsoldNotCreated(says: string): string {
  return `not sold in the source (${says}) and status is not among the fields sent (--fields): not created, so that it does not go live`;
}

/** The note of an update (or an unchanged row) of such a row's product: its status is left as it is. */
export function unsoldStatusKept(says: string): string {
  return `not sold in the source (${says}): status not sent (--fields), left as the marketplace has it`;
}
