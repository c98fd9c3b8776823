import type { SourceRecord } from '../interfaces.js';
import { CatalogConfigError } from './errors.js';
import { type MisspeltColumn, misspeltColumns, misspeltList, renameHint } from './misspelt-columns.js';
import { lookupReads, presetLookups } from './presets/asked-columns.js';
import { Columns } from './presets/columns.js';
import {
  isAmazonTemplatePreamble,
  type LocalizedHeader,
  PRESETS,
  type Preset,
  type PresetName,
} from './presets/index.js';

export interface Detection {
  name: PresetName;
  /** Said to the user: `preset shopify (detected from columns Handle, Variant SKU, Variant Price)`. */
  reason: string;
  /** Set when the header is in the store's language: the names the preset reads it by. */
  localized?: LocalizedHeader;
}

interface Fit {
  preset: Preset;
  localized?: LocalizedHeader;
  /** Actual column names that matched the signature, required ones first. */
  matched: string[];
  /** The required columns none of whose names the header has, each with its other names. */
  missing: string[][];
  distinctive: number;
}

/** Amazon's header competes with generic `sku` catalogs: ask more of it. */
const MIN_DISTINCTIVE: Partial<Record<PresetName, number>> = { amazon: 2 };

function matchSignature(preset: Preset, columns: Columns): Fit {
  const matched: string[] = [];
  const missing: string[][] = [];
  for (const alternatives of preset.signature.required) {
    const hit = columns.find(...alternatives);
    if (hit === undefined) missing.push(alternatives);
    else matched.push(hit);
  }
  let distinctive = 0;
  for (const name of preset.signature.distinctive) {
    const hit = columns.find(name);
    if (hit !== undefined && !matched.includes(hit)) {
      matched.push(hit);
      distinctive++;
    }
  }
  return { preset, matched, missing, distinctive };
}

/**
 * The signature against the header as the source writes it, or, for a platform that writes it in
 * the store's language, against the header read back to the preset's names; the columns matched
 * are named as the source writes them.
 */
function fitOf(preset: Preset, columns: readonly string[], sample: readonly SourceRecord[]): Fit {
  const plain = matchSignature(preset, new Columns(columns));
  const translated = plain.missing.length > 0 ? preset.localize?.(columns, sample) : undefined;
  const localized = withBlanksNamed(preset, translated, columns, sample);
  if (!localized) return plain;
  const fit = matchSignature(preset, new Columns(localized.columns));
  const original = (name: string) => columns[localized.columns.indexOf(name)] ?? name;
  return { ...fit, matched: fit.matched.map(original), localized };
}

/**
 * The header as `localize` read it (or as written), with the blank cells the preset can name by
 * their place named too; undefined when neither changed a name.
 */
function withBlanksNamed(
  preset: Preset,
  localized: LocalizedHeader | undefined,
  columns: readonly string[],
  sample: readonly SourceRecord[],
): LocalizedHeader | undefined {
  const named = preset.nameBlankColumns?.(localized?.columns ?? columns, sample);
  if (!named) return localized;
  return { columns: named.columns, says: localized ? `${localized.says}; ${named.says}` : named.says };
}

function fits(f: Fit): boolean {
  return f.missing.length === 0 && f.distinctive >= (MIN_DISTINCTIVE[f.preset.name] ?? 1);
}

function bestFit(columns: readonly string[], sample: readonly SourceRecord[]): Fit | undefined {
  const candidates = Object.values(PRESETS)
    .filter((preset) => preset.name !== 'generic')
    .map((preset) => fitOf(preset, columns, sample))
    .filter(fits);
  candidates.sort((a, b) => b.matched.length - a.matched.length);
  return candidates[0];
}

/**
 * The preset whose header signature the columns carry best; `generic` when none does. `sample`,
 * the first records, recognizes a header in a language no table knows by its values.
 */
export function detectPreset(columns: readonly string[], sample: readonly SourceRecord[] = []): Detection {
  if (isAmazonTemplatePreamble(columns)) {
    return {
      name: 'amazon',
      reason: 'preset amazon (detected from the TemplateType= row of an Amazon template)',
    };
  }
  const best = bestFit(columns, sample);
  if (!best) return { name: 'generic', reason: 'preset generic (the columns match no known export)' };
  const shown = best.matched.slice(0, 4).join(', ');
  const how = best.localized ? `: ${best.localized.says}` : '';
  const detection: Detection = {
    name: best.preset.name,
    reason: `preset ${best.preset.name} (detected from columns ${shown}${how})`,
  };
  if (best.localized) detection.localized = best.localized;
  return detection;
}

/**
 * Checks a preset the user named against the header: its required columns must be there.
 * Throws one line naming the missing columns and the preset that would fit.
 */
export function checkPreset(
  name: string,
  columns: readonly string[],
  sample: readonly SourceRecord[] = [],
): PresetName {
  if (!(name in PRESETS)) {
    throw new CatalogConfigError(
      `--preset ${name}: unknown preset (known: ${Object.keys(PRESETS).join(', ')})`,
    );
  }
  const preset = PRESETS[name as PresetName];
  if (preset.name === 'generic') return preset.name;
  if (preset.name === 'amazon' && isAmazonTemplatePreamble(columns)) return preset.name;
  const { missing } = fitOf(preset, columns, sample);
  if (missing.length === 0) return preset.name;
  const lacks = `--preset ${name}: the source has no column ${missing.map((m) => `"${m[0]}"`).join(', ')}`;
  const misspelt = requiredMisspelt(preset, columns, missing);
  if (misspelt.length > 0)
    throw new CatalogConfigError(`${lacks}: ${misspeltList(misspelt)}: ${renameHint(misspelt)}`);
  const detected = detectPreset(columns, sample).name;
  const suggestion =
    detected === 'generic' ? 'no preset fits: try --preset generic or --mapping' : `preset ${detected} fits`;
  throw new CatalogConfigError(`${lacks} (${suggestion})`);
}

/**
 * For a header no preset fits (detectPreset said `generic`): the preset whose signature it carries
 * but for required columns it writes one typo off (`Variant Pirce`), each such column with the one
 * it is near; undefined when none is so. Read as a generic file, a Shopify export with `Variant
 * Pirce` was refused for a reason that never named it (`no preset knows these columns`), and a
 * WooCommerce one with `Regular pirce` was sent as a generic file, its prices never read.
 */
export function nearlyFits(
  columns: readonly string[],
  sample: readonly SourceRecord[] = [],
): { name: PresetName; misspelt: MisspeltColumn[] } | undefined {
  for (const preset of Object.values(PRESETS)) {
    if (preset.name === 'generic') continue;
    const fit = fitOf(preset, columns, sample);
    if (fit.missing.length === 0 || fit.distinctive < (MIN_DISTINCTIVE[preset.name] ?? 1)) continue;
    const misspelt = requiredMisspelt(preset, columns, fit.missing);
    const named = (names: string[]) => misspelt.some(({ near }) => lookupReads(names, near));
    if (fit.missing.every(named)) return { name: preset.name, misspelt };
  }
  return undefined;
}

/** The header's columns `preset` reads under no name, one typo from a required column it lacks. */
function requiredMisspelt(preset: Preset, columns: readonly string[], missing: string[][]): MisspeltColumn[] {
  return misspeltColumns(columns, presetLookups(preset, columns), missing);
}

/** The header read back to the preset's names, when the source writes it in the store's language. */
export function localizedHeader(
  preset: Preset,
  columns: readonly string[],
  sample: readonly SourceRecord[] = [],
): LocalizedHeader | undefined {
  return fitOf(preset, columns, sample).localized;
}
