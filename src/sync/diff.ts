import { hash } from 'node:crypto';
import { toDecimal } from '../catalog/decimal.js';
import { edgeSpacedKey, listedKeyWords } from '../catalog/key-forms.js';
import { unsoldNotCreated, unsoldStatusKept } from '../catalog/unsold.js';
import type { ProductFields, ProductUpsert } from '../interfaces.js';
import { type CompactValue, compactEquals, compactValue } from './compact-value.js';
import { currencyUnsentRefusal } from './currency-unsent.js';
import { saleToEnd } from './sale-end.js';

/** A remote product as the run's index keeps it: its id and the compact values of the run's fields. */
export interface IndexedProduct {
  id: string;
  values: Record<string, CompactValue>;
  /**
   * Not read: an `--incremental` run that relies on its record diffs against the id alone (its
   * values are then empty, and what this tool last sent stands in for them, see diffProduct).
   */
  unread?: true;
}

/** What this tool remembers of a product it wrote: the three-way diff's third side (see id-map.ts). */
export interface WriteMemory {
  /** Each field as last sent, in its remembered form (see rememberedForm). */
  sent: Record<string, CompactValue>;
  /** Where the API showed a sent field in a form of its own: that form's digest, or UNKNOWN_ECHO. */
  echo?: Record<string, string>;
  /**
   * Sent fields whose write the API accepted but did not apply: its answer still showed the value
   * from before the write. Each later run says so while it lasts, with no new write.
   */
  unapplied?: string[];
}

/** The echo of a write whose answer showed nothing: the next list read tells what the API keeps. */
export const UNKNOWN_ECHO = '?';

export interface DiffOptions {
  /** Fields sent on create only, never in a PUT (`--create-only-fields`). */
  createOnly?: ReadonlySet<string>;
  /**
   * `--keep-remote-edits`: fields whose change made on the marketplace is kept (`all`: every field)
   * while the source still says what was last sent. Without it the source wins: drift is repaired.
   */
  keepRemote?: ReadonlySet<string> | 'all';
  /** `--fields`: the fields sent (absent: all); a new product's missing field may be left out by it. */
  sent?: ReadonlySet<string>;
  /** The run's match field: its value differing only by white space at its edges is the same key. */
  matchBy?: string;
}

/** `--keep-remote-edits` as the diff takes it: `all` anywhere in the list keeps every field. */
export function keepRemoteOf(fields: readonly string[]): ReadonlySet<string> | 'all' {
  return fields.includes('all') ? 'all' : new Set(fields);
}

/** Why a new product lacks `field` when `--fields` is what left it out: said, or the user looks in the file. */
function leftOutBy(options: DiffOptions, field: string): string {
  return options.sent && !options.sent.has(field) ? ` (--fields leaves ${field} out)` : '';
}

export type DiffResult =
  | { action: 'create'; fields: ProductFields }
  | { action: 'update'; id: string; fields: ProductFields; notes: string[]; learned: Record<string, string> }
  | { action: 'unchanged'; id: string; notes: string[]; learned: Record<string, string> }
  | { action: 'invalid'; reason: string }
  | { action: 'skipped'; reason: string };

/**
 * What one source row needs: a create, an update with only the changed fields, or nothing.
 *
 * A three-way diff (issue 9): the source, the product as listed, and what this tool last sent with
 * what the API showed after that write. A field is unchanged when the API shows what the source
 * says, or when the source still says what was last sent and the API still shows what it showed
 * then: so an API that keeps its own form of a value (a price in cents, a trimmed name, tags as
 * objects) is not written again every night, and an API that hides a field (`sku`) neither. A
 * field the API now shows otherwise was changed on the marketplace (drift): it is sent again.
 * `learned` holds the echoes that this list read tells for the first time (UNKNOWN_ECHO before).
 */
export function diffProduct(
  upsert: ProductUpsert,
  remote: IndexedProduct | undefined,
  memory: WriteMemory | undefined = undefined,
  options: DiffOptions = {},
): DiffResult {
  if (upsert.currencyUnsent !== undefined) {
    // An --incremental run that read no product: what this tool last sent stands for the listed value.
    const listed = remote && {
      id: remote.id,
      currency: remote.unread ? memory?.sent.currency : remote.values.currency,
      unread: remote.unread === true,
    };
    const wrongCurrency = currencyUnsentRefusal(upsert, listed);
    if (wrongCurrency !== undefined) return { action: 'invalid', reason: wrongCurrency };
  }
  if (!remote) {
    // Not sold in the source and sent without status (`--fields`): created, it could only go live.
    if (upsert.notSold !== undefined) return { action: 'skipped', reason: unsoldNotCreated(upsert.notSold) };
    // Contract, "What a run does with each row": a row that cannot be sent is reported, not dropped.
    if (upsert.fields.name === undefined)
      return {
        action: 'invalid',
        reason: `missing name for a new product${upsert.unnamed ? ` (${upsert.unnamed})` : ''}${leftOutBy(options, 'name')}`,
      };
    // A new product with no price is never sent. Only a create needs one: an update
    // that does not touch price still goes out. Where the platform sells it so, it is skipped.
    if (upsert.fields.price === undefined) {
      return upsert.unpriced
        ? { action: 'skipped', reason: upsert.unpriced }
        : { action: 'invalid', reason: `missing price for a new product${leftOutBy(options, 'price')}` };
    }
    return { action: 'create', fields: upsert.fields };
  }
  const changed: ProductFields = {};
  // Its status on the marketplace is whatever it is there: the row says so, written or not.
  const notes: string[] = upsert.notSold === undefined ? [] : [unsoldStatusKept(upsert.notSold)];
  const learned: Record<string, string> = {};
  let changes = 0;
  for (const [name, value] of Object.entries(upsert.fields)) {
    const mine = compactValue(value);
    if (mine === undefined) continue;
    const theirs = remote.values[name];
    if (theirs !== undefined && compactEquals(mine, theirs)) continue;
    // `SP ` on the marketplace is the row's `SP` (listed keys are read as cells are: the row was
    // matched so): kept as the seller's SKU, never changed for spaces alone (catalog/key-forms.ts).
    if (name === options.matchBy && typeof mine === 'string' && edgeSpacedKey(mine, theirs)) {
      const { shown, why } = listedKeyWords(theirs);
      notes.push(`${name} is ${shown} on the marketplace${why}: matched as ${mine}, kept`);
      continue;
    }
    const sent = memory?.sent[name];
    if (options.createOnly?.has(name)) {
      if (createOnlyDiffers(mine, theirs, sent, memory?.echo?.[name]))
        notes.push(`${name} differs (create-only: not sent in an update)`);
      continue;
    }
    if (sent !== undefined && sentEquals(mine, sent)) {
      const echo = memory?.echo?.[name];
      if (theirs === undefined) continue;
      if (echo === UNKNOWN_ECHO) {
        learned[name] = echoDigest(theirs);
        continue;
      }
      if (echo !== undefined && echo === echoDigest(theirs)) {
        if (memory?.unapplied?.includes(name)) notes.push(notAppliedNote(name, theirs));
        continue;
      }
      // Only the marketplace changed this field since our write: kept where asked. A field the
      // source changed too is not here (mine differs from what was sent): the source's new value goes.
      if (options.keepRemote === 'all' || options.keepRemote?.has(name)) {
        notes.push(`${name} changed on the marketplace, kept`);
        continue;
      }
      notes.push(`${name} changed on the marketplace: sent again`);
    }
    changed[name] = value;
    changes++;
  }
  // The source has no sale now: a sale price the marketplace still shows below the price ends.
  const sale = saleToEnd(upsert, remote.values, memory?.sent, changed, options);
  if (sale && 'kept' in sale) notes.push(sale.kept);
  else if (sale) {
    changed.sale_price = sale.value;
    notes.push(sale.note);
    changes++;
  }
  return changes === 0
    ? { action: 'unchanged', id: remote.id, notes, learned }
    : { action: 'update', id: remote.id, fields: changed, notes, learned };
}

/**
 * A create-only field the source gives otherwise than the API shows it (`theirs`), or, the product
 * not read (an `--incremental` run from its record), otherwise than this tool last sent it (`sent`).
 * Nothing is known of it when neither is: no note. The source still saying what was sent, with the
 * API showing it as that write left it (or showing nothing), is no difference either.
 */
function createOnlyDiffers(
  mine: CompactValue,
  theirs: CompactValue | undefined,
  sent: CompactValue | undefined,
  echo: string | undefined,
): boolean {
  const asSent = sent !== undefined && sentEquals(mine, sent);
  if (theirs === undefined) return sent !== undefined && !asSent;
  return !(asSent && showsAsWritten(theirs, sent, echo));
}

/**
 * The API still shows a field as a write left it: the value sent, or the form of its own the API
 * showed after that write (`echo`, see memoryAfterWrite). With UNKNOWN_ECHO only the value sent counts.
 */
export function showsAsWritten(theirs: CompactValue, sent: CompactValue, echo: string | undefined): boolean {
  if (compactEquals(theirs, sent)) return true;
  return echo !== undefined && echo !== UNKNOWN_ECHO && echo === echoDigest(theirs);
}

// The id map is kept without expiry, one entry per product (BENCHMARKS.md): a sent string longer
// than this is remembered as a digest, which tells "the source still says what was sent" as well.
const KEPT_AS_SENT = 16;
const REMEMBERED_MARK = '#~';

/** What the id map keeps of a sent value: numbers, booleans and short strings as they are. */
export function rememberedForm(value: CompactValue): CompactValue {
  if (typeof value !== 'string' || (value.length <= KEPT_AS_SENT && !value.startsWith(REMEMBERED_MARK)))
    return value;
  return `${REMEMBERED_MARK}${echoDigest(value)}`;
}

/** True when the id map keeps this sent value as it was sent, not as a digest (rememberedForm). */
export function keptAsSent(remembered: CompactValue): boolean {
  return !(typeof remembered === 'string' && remembered.startsWith(REMEMBERED_MARK));
}

/** The source value equals what was sent (a record written before sent values were digested too). */
function sentEquals(mine: CompactValue, sent: CompactValue): boolean {
  return compactEquals(rememberedForm(mine), sent) || compactEquals(mine, sent);
}

/**
 * A short digest of a field as the API shows it: enough to tell "still shows what it showed" without
 * keeping the value. Numbers digest as decimals, so `12.5` and `"12.50"` are one echo.
 */
export function echoDigest(value: CompactValue): string {
  // A list may show `"12.50"` where the write's answer showed 12.5: one form, one echo.
  const decimal = typeof value === 'boolean' ? null : toDecimal(value);
  const canonical = decimal === null ? JSON.stringify(value) : `#${decimal}`;
  // The one-shot hash: no Hash object (a stream) built and dropped for each field of each row.
  return hash('sha1', canonical, 'base64url').slice(0, 10);
}

/** The note of a field whose write was accepted but not applied. */
export function notAppliedNote(name: string, shown: CompactValue): string {
  const text = typeof shown === 'string' ? shown : JSON.stringify(shown);
  const value = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `accepted but not applied: the API still shows ${name} ${value}`;
}

/**
 * The sent fields that the write's answer shows as they were before it (`before`: the product as
 * listed), rather than as sent or in a form of the API's own: accepted, not applied.
 */
export function notApplied(
  sent: ProductFields,
  before: Record<string, CompactValue>,
  shown: Record<string, CompactValue> | null,
): string[] {
  if (shown === null) return [];
  const names: string[] = [];
  for (const [name, value] of Object.entries(sent)) {
    const mine = compactValue(value);
    const was = before[name];
    const now = shown[name];
    if (mine === undefined || was === undefined || now === undefined) continue;
    if (!compactEquals(mine, now) && compactEquals(was, now)) names.push(name);
  }
  return names;
}

/**
 * What to remember after a write of `sent`: the sent values merged into the earlier memory, and an
 * echo for each sent field the API showed in another form (`shown`: the answer's fields, compact, or
 * null when the answer showed no product: the next list read will tell).
 */
export function memoryAfterWrite(
  before: WriteMemory | undefined,
  sent: ProductFields,
  shown: Record<string, CompactValue> | null,
  unapplied: readonly string[] = [],
): WriteMemory {
  const memory: WriteMemory = { sent: { ...before?.sent }, echo: { ...before?.echo } };
  // A field written again is unapplied only if this write's answer says so too.
  const stillUnapplied = (before?.unapplied ?? []).filter((name) => !(name in sent));
  stillUnapplied.push(...unapplied);
  if (stillUnapplied.length > 0) memory.unapplied = stillUnapplied.sort();
  const echo = memory.echo as Record<string, string>;
  for (const [name, value] of Object.entries(sent)) {
    const mine = compactValue(value);
    if (mine === undefined) continue;
    memory.sent[name] = rememberedForm(mine);
    delete echo[name];
    if (shown === null) {
      echo[name] = UNKNOWN_ECHO;
      continue;
    }
    const theirs = shown[name];
    if (theirs !== undefined && !compactEquals(mine, theirs)) echo[name] = echoDigest(theirs);
  }
  if (Object.keys(echo).length === 0) delete memory.echo;
  return memory;
}

/**
 * For a row of an `--incremental` run, against the product as read (`shown`: its listed values): the
 * memory with each field the API shows as the row says it added as sent, or null when the memory
 * holds them already. The next incremental run then diffs this row against the record alone. Only
 * what is on the marketplace is recorded: a field the run leaves out and the API shows otherwise (a
 * create-only one, or one an update is about to send) is not, else the next run would take the
 * source's value for sent and never send it. A run that read no product (`shown` empty) adds nothing.
 */
export function memoryOfShown(
  before: WriteMemory | undefined,
  fields: ProductFields,
  shown: Record<string, CompactValue>,
  /** The run's match field: shown with white space at its edges, it shows as the row says (diffProduct). */
  matchBy?: string,
): WriteMemory | null {
  const sent = { ...before?.sent };
  const echo = { ...before?.echo };
  let unapplied = before?.unapplied;
  let added = false;
  for (const [name, value] of Object.entries(fields)) {
    const mine = compactValue(value);
    const theirs = shown[name];
    if (mine === undefined || theirs === undefined) continue;
    const same =
      compactEquals(mine, theirs) ||
      (name === matchBy && typeof mine === 'string' && edgeSpacedKey(mine, theirs));
    if (!same) continue;
    const known = sent[name];
    if (known !== undefined && sentEquals(mine, known)) continue;
    sent[name] = rememberedForm(mine);
    // What the API showed of an earlier value, or said of it, is not this value's.
    delete echo[name];
    unapplied = unapplied?.filter((field) => field !== name);
    added = true;
  }
  if (!added) return null;
  const memory: WriteMemory = { ...before, sent };
  if (Object.keys(echo).length > 0) memory.echo = echo;
  else delete memory.echo;
  if (unapplied && unapplied.length > 0) memory.unapplied = unapplied;
  else delete memory.unapplied;
  return memory;
}
