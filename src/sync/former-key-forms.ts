import type { ChainableCommander } from 'ioredis';
import { RUN_TTL_SECONDS } from '../defaults.js';
import type { ProductUpsert } from '../interfaces.js';
import { queueSetAbsent } from '../redis/lua-slices.js';
import type { FormerKeyFormIndex, RedisKeys } from '../runs/keys.js';
import { EXCEL_TEXT } from './excel-text-keys.js';
import type { KnownProduct } from './id-map.js';
import type { FactReads } from './id-row-facts.js';
import { INVISIBLE_EDGE } from './invisible-edge-keys.js';

/**
 * Keys an earlier version wrote another way than this one reads them (docs/sources.md, "Upgrading"):
 * the products it made have the key so written, and the id map records them under it. A row read in
 * the clean form that finds no product under any form of its key finds the one under its key as
 * written then: that product is the row's. Its write gives it the clean key, its record moves to
 * that key (the entry under the old one goes, as a former key's does: RowSyncContext.former), so
 * the next night finds it at once, and its row says so (formerFormNote). A form is one entry here.
 */
export interface FormerKeyForm {
  /** The RowLookup field its match is in. */
  name: string;
  /** Run record field: the run's list read listed a key in this form. */
  listed: string;
  /** The run's hash of such listed keys, clean → as listed (RedisKeys.formerFormKeys). */
  index: FormerKeyFormIndex;
  /**
   * Run record field set beside `listed` where the earlier version (d1ba056) listed keys in this
   * form without that hash: a run still queued from it has `listed` alone, and its rows ask keyToId
   * for their keys as written (`recorded`), as it did. None: that version kept the same hash.
   */
  indexed?: string;
  /** Whether a listed key is in this form: a look at a character or two, for every listed product. */
  is(key: string): boolean;
  /** A listed key in this form, cleaned: its field in the index ('': no row asks for it). */
  clean(key: string): string;
  /** The field a row that found no product asks the index for, or undefined: never in this form. */
  asks(upsert: ProductUpsert): string | undefined;
  /** The keys the id map may record the row's product under in this form (a run that read no list). */
  recorded(upsert: ProductUpsert): string[];
  /** The row note's words: the old key as shown, and why it is another (`` or ` (…)`). */
  words(key: string): { shown: string; why: string };
}

/** Each form, the first to find a row's product wins. */
export const FORMER_KEY_FORMS = [EXCEL_TEXT, INVISIBLE_EDGE] as const satisfies readonly FormerKeyForm[];
/** One of them. */
export type FormerForm = (typeof FORMER_KEY_FORMS)[number];

/** A row's product found under its key as an earlier version wrote it. */
export interface FormerFormMatch {
  /** The key as the earlier version sent it (`="00123"`, `\u200bZW-1`). */
  key: string;
  id: string;
  /** The run's match field, as the row's note names it. */
  matchBy: string;
  /** What the id map records of the product under that key, if it does. */
  product?: KnownProduct;
}

/**
 * A row look-up's match, under its form's name (RowLookup.excelText, RowLookup.invisibleEdge): a
 * form added to the list adds its field.
 */
export type FormerFormLookup = { [N in FormerForm['name']]?: FormerFormMatch };

/** A row's product found in a former form: which, and the match. */
export interface FoundInFormerForm {
  form: FormerForm;
  match: FormerFormMatch;
}

/** The form and match a row's look-up found, if any. */
export function formerFormOf(lookup: FormerFormLookup): FoundInFormerForm | undefined {
  for (const form of FORMER_KEY_FORMS) {
    const match = lookup[form.name];
    if (match) return { form, match };
  }
  return undefined;
}

/** The field saying a run's read wrote the form's hash, where an earlier version's did not. */
function indexedField(form: FormerKeyForm): string | undefined {
  return form.indexed;
}

/**
 * A form the run's list read listed a key in. `unindexed`: the read was the earlier version's,
 * which kept no hash of the form (FormerKeyForm.indexed): its rows look the earlier way.
 */
export interface ListedForm {
  form: FormerForm;
  unindexed: boolean;
}

/**
 * The run record fields listedForms reads, two a form: `listed`, and `indexed` (a form without one:
 * `listed` again, so that a listed form is indexed). Asked in the command that asks the others.
 */
export const FORMS_LISTED_FIELDS = FORMER_KEY_FORMS.flatMap((form) => [
  form.listed,
  indexedField(form) ?? form.listed,
]);

/** The forms the run's list read listed a key in, from the values of FORMS_LISTED_FIELDS. */
export function listedForms(values: readonly (string | null | undefined)[]): ListedForm[] {
  return FORMER_KEY_FORMS.flatMap((form, i) =>
    values[2 * i] === '1' ? [{ form, unindexed: values[2 * i + 1] !== '1' }] : [],
  );
}

/** A listed key in a former form, by form: clean → as listed, flat. None on nearly every page. */
export type FormerPairs = Map<FormerForm, string[]>;

/** Adds a listed key to `pairs` if it is in a former form: the forms' looks, nothing more, for others. */
export function noteFormerForm(pairs: FormerPairs, key: string): void {
  for (const form of FORMER_KEY_FORMS) {
    if (!form.is(key)) continue;
    const clean = form.clean(key);
    if (clean === '') continue;
    const pair = pairs.get(form);
    if (pair) pair.push(clean, key);
    else pairs.set(form, [clean, key]);
  }
}

/**
 * A page's keys in a former form, into their form's index: the clean row finds them under its key.
 * The first listed keeps it (a clean one listed itself is found first, under its own key). The run
 * record says the read listed one: a read that lists none spares every chunk the look-up.
 */
export function queueFormerPairs(
  multi: ChainableCommander,
  keys: RedisKeys,
  runId: string,
  pairs: FormerPairs,
): void {
  for (const [form, pair] of pairs) {
    const index = keys.formerFormKeys(runId, form.index);
    queueSetAbsent(multi, index, pair);
    multi.expire(index, RUN_TTL_SECONDS);
    const indexed = indexedField(form);
    multi.hset(keys.run(runId), { [form.listed]: 1, ...(indexed ? { [indexed]: 1 } : {}) });
  }
}

/** A row's key as it may have been written in a form, in the order they are tried. */
interface Asked {
  i: number;
  form: FormerForm;
  key: string;
}

/**
 * For rows that found no product under any form of their key: the product under their key as an
 * earlier version wrote it. Its id goes into `ids`; the matches are returned by row. `listed`: the
 * forms the run's list read listed a key in (undefined: no list read). After a list read, one HMGET
 * per such form for the chunk, asked only by rows that may have had the form, and more only for a
 * key found; a read that listed none asks nothing. A run the earlier version read, which kept no
 * hash of a form (ListedForm.unindexed), asks keyToId for its rows' keys as written instead, in the
 * HMGET that asks it for the keys found. Without a list read (an `--incremental` run relying on the
 * record), one id map read of the rows' keys in every form: only rows about to be created ask.
 */
export async function lookUpFormerForms(
  reads: Pick<FactReads, 'redis' | 'keys' | 'runId' | 'idMap' | 'matchBy'>,
  upserts: readonly ProductUpsert[],
  ids: (string | null)[],
  listed: readonly ListedForm[] | undefined,
): Promise<Map<number, FoundInFormerForm>> {
  const matches = new Map<number, FoundInFormerForm>();
  const open = upserts.flatMap((_, i) => (ids[i] === null ? [i] : []));
  if (open.length === 0 || listed?.length === 0) return matches;
  const asked = listed
    ? await listedUnder(reads, upserts, open, listed)
    : FORMER_KEY_FORMS.flatMap((form) =>
        open.flatMap((i) => form.recorded(upserts[i] as ProductUpsert).map((key) => ({ i, form, key }))),
      );
  if (asked.length === 0) return matches;
  const keys = asked.map(({ key }) => key);
  const [known, indexed] = await Promise.all([
    reads.idMap.getMany(keys),
    listed ? reads.redis.hmget(reads.keys.keyToId(reads.runId), ...keys) : undefined,
  ]);
  asked.forEach(({ i, form, key }, at) => {
    const recorded = known.get(key);
    // After a list read, the product listed under the key; else the one recorded.
    const id = indexed ? indexed[at] : recorded?.id;
    if (ids[i] !== null || !id) return;
    ids[i] = id;
    const match: FormerFormMatch = { key, id, matchBy: reads.matchBy };
    // The record is the product's only while it names it (not another listed under that key).
    if (recorded?.id === id) match.product = recorded;
    matches.set((upserts[i] as ProductUpsert).row, { form, match });
  });
  return matches;
}

/**
 * The keys as listed that the open rows' clean keys name in each listed form's index: one HMGET a
 * form. A form the earlier version listed without an index: the rows' keys as written, unasked
 * (keyToId, asked next, holds every listed key as listed).
 */
async function listedUnder(
  reads: Pick<FactReads, 'redis' | 'keys' | 'runId'>,
  upserts: readonly ProductUpsert[],
  open: readonly number[],
  listed: readonly ListedForm[],
): Promise<Asked[]> {
  const found = await Promise.all(
    listed.map(async ({ form, unindexed }) => {
      if (unindexed)
        return open.flatMap((i) =>
          form.recorded(upserts[i] as ProductUpsert).map((key) => ({ i, form, key })),
        );
      const asking = open.flatMap((i) => {
        const clean = form.asks(upserts[i] as ProductUpsert);
        return clean === undefined ? [] : [{ i, clean }];
      });
      if (asking.length === 0) return [];
      const index = reads.keys.formerFormKeys(reads.runId, form.index);
      const keys = await reads.redis.hmget(index, ...asking.map(({ clean }) => clean));
      return asking.flatMap(({ i }, at) => (keys[at] ? [{ i, form, key: keys[at] as string }] : []));
    }),
  );
  return found.flat();
}

/**
 * `sku was OLD on the marketplace…: sent as NEW` once the write sent the match field, else `sku is
 * OLD …: matched as NEW`: the note of a row whose product was found under its key as an earlier
 * version wrote it. `written`: the row's update went out, and sent the key unless
 * `--create-only-fields` kept it from the PUT; else the product still has the old key (a dry run, a
 * write held or failed, `--fields` without the key).
 */
export function formerFormNote(
  { form, match }: FoundInFormerForm,
  upsert: ProductUpsert,
  options: { createOnly: ReadonlySet<string> },
  written: boolean,
): string {
  const { matchBy } = match;
  const { shown, why } = form.words(match.key);
  const sent = written && upsert.fields[matchBy] !== undefined && !options.createOnly.has(matchBy);
  return sent
    ? `${matchBy} was ${shown} on the marketplace${why}: sent as ${upsert.key}`
    : `${matchBy} is ${shown} on the marketplace${why}: matched as ${upsert.key}`;
}
