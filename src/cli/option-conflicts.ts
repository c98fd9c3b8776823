import { nearestField, TOOL_FIELDS } from '../catalog/field-names.js';
import { shownName } from '../catalog/invisible-text.js';
import { MONEY_FIELDS } from '../catalog/money.js';
import { PUBLISHED_STATE_PRESETS } from '../catalog/presets/index.js';
import { mayShowField, shownFields } from '../catalog/shown-fields.js';
import { DEFAULT_MAX_MISSING } from '../guards/verdict.js';
import { isStoreSource } from '../sources/stores/store-url.js';
import type { OptionNames } from './option-origins.js';
import type { RunFlags } from './run-flags.js';
import { UsageError } from './usage-error.js';

/**
 * Options that could not act in this run, given the others (docs/options.md, "Options that would
 * do nothing"): never accepted in silence. Each is one line naming the option at fault and the one
 * that makes it idle, each by where it came from (a flag, or a job file's key), exit 2, before any
 * request. A `--dry-run` is the one exception: it previews the run as its options stand, and says
 * in a line which of them it does not apply.
 */

type Check = (flags: RunFlags, names: OptionNames) => string | null;

const list = (values: readonly string[] | undefined) => (values ?? []).join(',');

/** A field named both create-only and by `option`, which acts on updates only. */
function createOnlyAnd(option: 'keepRemoteEdits' | 'first', why: string): Check {
  return (flags, names) => {
    const both = (flags[option] ?? []).find((field) => flags.createOnlyFields?.includes(field));
    if (both === undefined || !mayShowField(both)) return null;
    return `${names.name(option)}: ${both} is create-only (${names.withValue('createOnlyFields', list(flags.createOnlyFields))}): ${why}`;
  };
}

/** What `--only` leaves out makes `option` idle. */
function onlyMakesIdle(option: keyof RunFlags, only: 'create' | 'update', why: string): Check {
  return (flags, names) =>
    flags.only === only && names.given(option)
      ? `${names.name(option)}: ${names.withValue('only', only)} ${why}`
      : null;
}

/**
 * `--missing` naming the field the run matches products by: the product it writes would no longer
 * be found under its key (missing/missing-value-rules.ts refuses `sku` and `id` alike, whatever the
 * run). `matchBy` is the field, `given` how the run was told it (`--match-by name`), where it was.
 */
export function missingNamesMatchField(
  flags: Pick<RunFlags, 'missing'>,
  names: OptionNames,
  matchBy: string,
  given?: string,
): string | null {
  if (!flags.missing || !Object.hasOwn(flags.missing, matchBy)) return null;
  const how = given ? ` (${given})` : '';
  return `${names.name('missing')}: ${matchBy} is the field this run matches products by${how}: never a --missing field (a product given another key is lost to the source's row, and comes back as a second product)`;
}

/** Checked before the source is opened: the options alone tell. */
const BEFORE_SOURCE: readonly Check[] = [
  (flags, names) =>
    flags.matchBy === undefined
      ? null
      : missingNamesMatchField(flags, names, flags.matchBy, names.withValue('matchBy', flags.matchBy)),
  // A guard of a deactivation that was not asked for would silently guard nothing.
  (flags, names) =>
    flags.maxMissing !== undefined && !flags.missing
      ? `${names.name('maxMissing')} guards --missing: give --missing field=value too (e.g. --missing quantity=0; job files: missing:)`
      : null,
  (flags, names) =>
    names.given('fullReadAfter') && !flags.incremental
      ? `${names.name('fullReadAfter')}: it says when an --incremental run reads the products anyway, and this run is not --incremental: add --incremental or drop it`
      : null,
  onlyMakesIdle('maxUpdates', 'create', 'updates nothing: the guard would never act'),
  onlyMakesIdle(
    'maxPriceChange',
    'create',
    'updates nothing: a new product has no price to move from, the guard would never act',
  ),
  onlyMakesIdle('keepRemoteEdits', 'create', 'updates nothing: there is no marketplace edit to keep'),
  onlyMakesIdle('first', 'create', 'sends creates only: there are no updates to send first'),
  onlyMakesIdle(
    'createOnlyFields',
    'update',
    'creates nothing: fields sent on create only would never be sent',
  ),
  (flags, names) =>
    flags.only && flags.missing
      ? `${names.name('missing')}: a run with ${names.withValue('only', flags.only)} leaves rows out, so it can tell no product gone from the source and deactivates nothing: drop one of them`
      : null,
  createOnlyAnd('keepRemoteEdits', 'no update writes it, so there is no marketplace edit of it to keep'),
  createOnlyAnd('first', 'it is in no update, so none of it can go first'),
  // An update's sale price moves the price the buyer pays too: the guard weighs it (guards/buyer-price.ts).
  (flags, names) =>
    names.given('maxPriceChange') &&
    flags.createOnlyFields?.includes('price') &&
    flags.createOnlyFields.includes('sale_price')
      ? `${names.name('maxPriceChange')}: price and sale_price are create-only (${names.withValue('createOnlyFields', list(flags.createOnlyFields))}): no update moves them, the guard would never act`
      : null,
  (flags, names) => {
    const field = Object.keys(flags.missing ?? {}).find((name) => flags.createOnlyFields?.includes(name));
    if (field === undefined || !mayShowField(field)) return null;
    return `${names.name('missing')}: ${field} is create-only (${names.withValue('createOnlyFields', list(flags.createOnlyFields))}): the deactivating PUT cannot set it`;
  },
  (flags, names) =>
    flags.sandbox && names.given('baseUrl') && names.name('baseUrl') === '--base-url'
      ? '--base-url: --sandbox runs against an in-process sandbox, not that API: drop one of them'
      : null,
  (flags, names) =>
    names.given('dataDir') && !flags.job
      ? `${names.name('dataDir')}: it widens where a job file's paths may lead, and this run has no --job: drop it`
      : null,
];

/** Checked before the source is opened: what the kind of source makes idle. */
function sourceChecks(source: string, names: OptionNames): string | null {
  const store = isStoreSource(source);
  if (store) {
    const fileOption = (['format', 'delimiter', 'encoding'] as const).find((name) => names.given(name));
    if (fileOption)
      return `${names.name(fileOption)}: a store source is read through its API, not as a file: drop it`;
    if (names.given('sourceApiVersion') && /^woocommerce/i.test(source))
      return `${names.name('sourceApiVersion')}: it is the Shopify Admin API's version, and this source is a WooCommerce store: drop it`;
    return null;
  }
  if (names.given('sourceTimeout') && !/^https?:\/\//i.test(source))
    return `${names.name('sourceTimeout')}: it bounds a source URL or a store that goes silent, and this source is ${source === '-' ? 'standard input' : 'a file'}: drop it`;
  return null;
}

/**
 * Refuses the options the run's others make idle (one line, exit 2); returns the lines to say of
 * those a `--dry-run` does not apply.
 */
export function checkOptionsAlone(source: string, flags: RunFlags, names: OptionNames): string[] {
  for (const check of BEFORE_SOURCE) {
    const line = check(flags, names);
    if (line !== null) throw new UsageError(line);
  }
  // `--fields` tells what is sent before the source is read (the mapper checks each name later).
  const line =
    sourceChecks(source, names) ??
    (flags.fields
      ? priceLine(flags, names, new Set(flags.fields), names.withValue('fields', list(flags.fields)))
      : null);
  if (line !== null) throw new UsageError(line);
  return dryRunLines(flags, names);
}

/**
 * The guards and `--first` act on writes: a dry run, which writes nothing, does not apply them. The
 * guard `--missing` brings with it (`--max-missing 20%` when not given) is named too: nobody typed
 * it, and it is the one a real run is held by in surprise (the summary says when it would be).
 */
function dryRunLines(flags: RunFlags, names: OptionNames): string[] {
  if (!flags.dryRun) return [];
  const idle = (['maxInvalid', 'maxUpdates', 'maxPriceChange', 'maxMissing', 'first'] as const).flatMap(
    (name) => {
      if (names.given(name)) return [names.name(name)];
      if (name === 'maxMissing' && flags.missing) return [`--max-missing ${DEFAULT_MAX_MISSING} (default)`];
      return [];
    },
  );
  if (idle.length === 0) return [];
  return [
    `--dry-run: ${idle.join(', ')} ${idle.length === 1 ? 'acts' : 'act'} on writes and ${idle.length === 1 ? 'is' : 'are'} not applied: a dry run writes nothing and holds nothing`,
  ];
}

/** What the source and mapping make of the run, once known (prepare-run.ts). */
export interface SentFields {
  /** The fields the run can send (after `--fields`). */
  fields: readonly string[];
  /**
   * True when no other field can be sent: `--fields` was given, or the source's columns are fixed
   * (CSV, a store). A JSON, NDJSON or XML record may bring a field the first one lacked.
   */
  closed: boolean;
  /** Every field the source gives, before `--fields`. */
  given: readonly string[];
  /** The preset the rows are read with (`generic`, `woocommerce`, `mapping <file>` …). */
  preset: string;
  /** The source's format (`csv`, `json` …), where it has one. */
  format?: string;
}

/** Refuses the options that act on fields this run does not send (one line, exit 2). */
export function checkSentFields(flags: RunFlags, names: OptionNames, sent: SentFields): void {
  const line = sentFieldLine(flags, names, sent);
  if (line !== null) throw new UsageError(line);
}

function sentFieldLine(flags: RunFlags, names: OptionNames, sent: SentFields): string | null {
  const mappingAlone = sent.preset.startsWith('mapping ');
  if (flags.includeExternal && sent.preset !== 'woocommerce')
    return `${names.name('includeExternal')}: only the woocommerce preset reads products sold on another site, and this source is read with ${mappingAlone ? 'a mapping file alone' : `the ${sent.preset} preset`}: drop it`;
  const unpublished = onlyPublishedLine(flags, names, sent, mappingAlone);
  if (unpublished) return unpublished;
  if (names.given('delimiter') && sent.format !== undefined && sent.format !== 'csv')
    return `${names.name('delimiter')}: this source is ${sent.format}, not CSV: drop it`;
  if (!sent.closed) return null;
  const sends = new Set(sent.fields);
  const what = flags.fields
    ? names.withValue('fields', list(flags.fields))
    : `the source gives ${shownFields(sent.fields)}`;
  for (const option of ['keepRemoteEdits', 'createOnlyFields', 'first'] as const) {
    const unsent = (flags[option] ?? []).find((field) => field !== 'all' && !sends.has(field));
    if (unsent === undefined) continue;
    const shown = mayShowField(unsent) ? unsent : 'a field';
    // A field the source gives that --fields leaves out, or a name the source does not give (a typo).
    const hint = sent.given.includes(unsent) ? '' : nearestHint(unsent, [...sent.given, ...TOOL_FIELDS]);
    return `${names.name(option)}: ${shown}: this run does not send it (${what})${hint}`;
  }
  return priceLine(flags, names, sends, what);
}

/**
 * `--only-published` where no row can say it is not sold: a preset whose export has no published
 * state, and no `status` field given (the row's own, which such a row is judged by). A JSON record
 * after the first may bring one: an open source is not judged here.
 */
function onlyPublishedLine(
  flags: RunFlags,
  names: OptionNames,
  sent: SentFields,
  mappingAlone: boolean,
): string | null {
  if (!flags.onlyPublished || PUBLISHED_STATE_PRESETS.has(sent.preset)) return null;
  if (sent.given.includes('status') || !sent.closed) return null;
  const reads =
    sent.preset === 'generic' || mappingAlone
      ? `${mappingAlone ? 'a mapping file alone' : 'the generic preset'} reads that from a status field, and this source gives none`
      : `the ${sent.preset} preset reads no published state, and this source gives no status field`;
  return `${names.name('onlyPublished')}: no row of this source can say it is not sold (${reads}): drop it`;
}

/** The options that act on prices, in a run that sends none. */
function priceLine(
  flags: RunFlags,
  names: OptionNames,
  sends: ReadonlySet<string>,
  what: string,
): string | null {
  // The guard weighs the price the buyer pays: a run that sends only sale prices can move it too.
  if (names.given('maxPriceChange') && !sends.has('price') && !sends.has('sale_price'))
    return `${names.name('maxPriceChange')}: this run sends no price or sale_price (${what}): the guard would never act`;
  if ([...MONEY_FIELDS].some((field) => sends.has(field))) return null;
  const priced = (['taxRate', 'priceIncludesTax', 'priceDecimals'] as const).find(
    (name) => names.given(name) && flags[name] !== false,
  );
  if (!priced) return null;
  return `${names.name(priced)}: this run sends no price or sale_price (${what}): there is no price to act on`;
}

/** The field a name the source does not give was meant to be (a typo, another platform's word). */
function nearestHint(name: string, known: readonly string[]): string {
  const nearest = nearestField(name, [...new Set(known)].filter(mayShowField));
  if (!nearest) return '';
  return nearest.otherName
    ? `; the ${name} field is ${nearest.field}`
    : `; the nearest field is ${shownName(nearest.field)}`;
}
