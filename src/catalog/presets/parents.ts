import type { SourceRecord } from '../../interfaces.js';
import type { Draft, RawFields } from './types.js';

export interface HeldParent {
  record: SourceRecord;
  key: string;
  /** The parent's own fields, for its children to inherit where theirs are blank. */
  fields: RawFields;
  /** Why this parent is merged rather than sent, completed with the child's row. */
  describe: string;
}

/**
 * Variation parents (WooCommerce `variable`, Amazon `parentage=parent`) are not products the
 * Seller API can sell: the API has no variants, so each child is a product of its own. A parent is
 * held until its first child shows up, then reported as merged into that child (its name,
 * description and images pass on to the children). A parent no child claims is skipped at the end:
 * a container without content is not sold on its own, on the platform either. Memory: one entry per parent (never per child).
 */
export class Parents {
  private readonly byRef = new Map<string, HeldParent>();
  private readonly unclaimed = new Set<HeldParent>();
  /** Children that named a parent not seen yet: the parent may come later (forward reference). */
  private readonly awaited = new Map<string, SourceRecord>();

  /** Holds a parent under each of its references; merges it at once if a child already asked. */
  hold(refs: string[], parent: HeldParent): Draft[] {
    for (const ref of refs) if (ref !== '') this.byRef.set(ref, parent);
    const child = refs.map((ref) => this.awaited.get(ref)).find((row) => row !== undefined);
    if (child) return [merged(parent, child)];
    this.unclaimed.add(parent);
    return [];
  }

  /** The parent named by `ref`, and its merged draft when `child` is its first child. */
  claim(ref: string, child: SourceRecord): { parent?: HeldParent; drafts: Draft[] } {
    const parent = this.byRef.get(ref);
    if (!parent) {
      if (ref !== '' && !this.awaited.has(ref)) this.awaited.set(ref, child);
      return { drafts: [] };
    }
    if (!this.unclaimed.delete(parent)) return { parent, drafts: [] };
    return { parent, drafts: [merged(parent, child)] };
  }

  /** Parents no child claimed, as skipped rows. */
  leftovers(reason: (parent: HeldParent) => string): Draft[] {
    const drafts: Draft[] = [...this.unclaimed].map((parent) => ({
      kind: 'skipped',
      record: parent.record,
      key: parent.key,
      reason: reason(parent),
    }));
    this.unclaimed.clear();
    return drafts;
  }
}

function merged(parent: HeldParent, child: SourceRecord): Draft {
  return {
    kind: 'merged',
    record: parent.record,
    key: parent.key,
    intoRow: child.row,
    reason: `${parent.describe}: each variation is its own product; merged into its first variation, row ${child.row}`,
  };
}

/** A child's field, or the parent's where the child's is blank. */
export function inherit(child: RawFields, parent: RawFields, fields: readonly string[]): void {
  for (const field of fields) {
    const value = parent[field];
    if (child[field] === undefined && value !== undefined) child[field] = value;
  }
}
