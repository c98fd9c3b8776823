import type { ProductFields } from '../interfaces.js';
import { type CompactValue, compactEquals, compactValue, isDigest } from '../sync/compact-value.js';
import { keptAsSent, rememberedForm, showsAsWritten } from '../sync/diff.js';
import type { KnownProduct } from '../sync/id-map.js';
import type { ReplacedValues } from '../sync/replaced-values.js';

export interface FieldKept {
  field: string;
  /** Why it is left alone, ending in "kept" (`name changed since the run: kept`). */
  reason: string;
}

/** What `revert` does with one product a run updated. */
export interface ProductRevertPlan {
  id: string;
  key: string;
  /** The fields to put back, with their values before the run: one PUT of these, or none. */
  put: ProductFields;
  /** Fields that show their value from before the run already (a revert done before, an edit). */
  alreadyBack: string[];
  kept: FieldKept[];
  /** The product is not among the seller's products any more. */
  gone: boolean;
  /**
   * The run read no product (`--incremental` from its record): the values put back are the ones
   * this tool had last sent it before the run, the best it knows of what the product showed then.
   */
  fromRecord?: true;
}

/**
 * What to put back on one product the run updated, given the product as the API shows it now
 * (`current`, null when it is gone): each field that still shows what the run sent (or the API's
 * own form of it) gets its value from before the run; a field changed since is left alone. Fields
 * compare as the diff compares them (decimals as decimals, the API's own form through its echo).
 */
export function planProductRevert(
  id: string,
  replaced: ReplacedValues,
  current: Readonly<Record<string, unknown>> | null,
): ProductRevertPlan {
  const plan: ProductRevertPlan = { id, key: replaced.key, put: {}, alreadyBack: [], kept: [], gone: false };
  if (current === null) return { ...plan, gone: true };
  for (const [name, field] of Object.entries(replaced.fields)) {
    const kept = (why: string) => plan.kept.push({ field: name, reason: `${name} ${why}: kept` });
    const shown = current[name];
    const theirs = compactValue(shown);
    // Unread, the value before the run is taken to be the one this tool had last sent.
    const before = field.before ?? (replaced.unread ? sentBeforeRun(field) : null);
    if (theirs === undefined) kept('is not shown by the API');
    else if (before !== null && compactEquals(theirs, before)) plan.alreadyBack.push(name);
    else if (!showsAsWritten(theirs, field.sent, field.echo)) kept('changed since the run');
    else if (before === null && replaced.unread)
      kept('had its old value unread (an --incremental run reads no product)');
    else if (before === null) kept('had no value before the run (the API cannot clear a field)');
    else if (isDigest(before)) kept('was longer than 64 characters before the run (not recorded)');
    // The run's read kept a list or an object as its JSON text: that text is not what was there.
    else if (typeof shown === 'object' && typeof before === 'string') kept('is a list or an object');
    else plan.put[name] = before;
  }
  if (replaced.unread && Object.keys(plan.put).length > 0) plan.fromRecord = true;
  return plan;
}

/** What this tool had last sent in a field before the run, when its record keeps it as it was sent. */
function sentBeforeRun(field: ReplacedValues['fields'][string]): CompactValue | null {
  const sent = field.memorySent;
  return sent === undefined || !keptAsSent(sent) ? null : sent;
}

/**
 * The seller's id-map entry with the run's memory of the fields now back to their value before the
 * run (`back`) undone: so the next run of the file from before diffs as it did then. A field the
 * id map has seen written since (another run) keeps that newer memory. Null: nothing to change.
 */
export function restoredMemory(
  known: KnownProduct | undefined,
  replaced: ReplacedValues,
  back: readonly string[],
): KnownProduct | null {
  if (!known) return null;
  const sent = { ...known.sent };
  const echo = { ...known.echo };
  let changed = false;
  for (const name of back) {
    const field = replaced.fields[name];
    const remembered = sent[name];
    if (!field || remembered === undefined || !compactEquals(remembered, rememberedForm(field.sent)))
      continue;
    if (field.memorySent === undefined) delete sent[name];
    else sent[name] = field.memorySent;
    if (field.memoryEcho === undefined) delete echo[name];
    else echo[name] = field.memoryEcho;
    changed = true;
  }
  if (!changed) return null;
  return { id: known.id, sent, ...(Object.keys(echo).length > 0 ? { echo } : {}) };
}
