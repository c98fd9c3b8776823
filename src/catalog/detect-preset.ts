import { CatalogConfigError } from './errors.js';
import { Columns } from './presets/columns.js';
import { isAmazonTemplatePreamble, PRESETS, type Preset, type PresetName } from './presets/index.js';

export interface Detection {
  name: PresetName;
  /** Said to the user: `preset shopify (detected from columns Handle, Variant SKU, Variant Price)`. */
  reason: string;
}

interface Fit {
  preset: Preset;
  /** Actual column names that matched the signature, required ones first. */
  matched: string[];
  missing: string[];
  distinctive: number;
}

/** Amazon's header competes with generic `sku` catalogs: ask more of it. */
const MIN_DISTINCTIVE: Partial<Record<PresetName, number>> = { amazon: 2 };

function matchSignature(preset: Preset, columns: Columns): Fit {
  const matched: string[] = [];
  const missing: string[] = [];
  for (const alternatives of preset.signature.required) {
    const hit = columns.find(...alternatives);
    if (hit === undefined) missing.push(alternatives[0]!);
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

function fits(f: Fit): boolean {
  return f.missing.length === 0 && f.distinctive >= (MIN_DISTINCTIVE[f.preset.name] ?? 1);
}

function bestFit(columns: readonly string[]): Fit | undefined {
  const index = new Columns(columns);
  const candidates = Object.values(PRESETS)
    .filter((preset) => preset.name !== 'generic')
    .map((preset) => matchSignature(preset, index))
    .filter(fits);
  candidates.sort((a, b) => b.matched.length - a.matched.length);
  return candidates[0];
}

/** The preset whose header signature the columns carry best; `generic` when none does. */
export function detectPreset(columns: readonly string[]): Detection {
  if (isAmazonTemplatePreamble(columns)) {
    return {
      name: 'amazon',
      reason: 'preset amazon (detected from the TemplateType= row of an Amazon template)',
    };
  }
  const best = bestFit(columns);
  if (!best) return { name: 'generic', reason: 'preset generic (the columns match no known export)' };
  const shown = best.matched.slice(0, 4).join(', ');
  return { name: best.preset.name, reason: `preset ${best.preset.name} (detected from columns ${shown})` };
}

/**
 * Checks a preset the user named against the header: its required columns must be there.
 * Throws one line naming the missing columns and the preset that would fit.
 */
export function checkPreset(name: string, columns: readonly string[]): PresetName {
  if (!(name in PRESETS)) {
    throw new CatalogConfigError(
      `--preset ${name}: unknown preset (known: ${Object.keys(PRESETS).join(', ')})`,
    );
  }
  const preset = PRESETS[name as PresetName];
  if (preset.name === 'generic') return preset.name;
  if (preset.name === 'amazon' && isAmazonTemplatePreamble(columns)) return preset.name;
  const { missing } = matchSignature(preset, new Columns(columns));
  if (missing.length === 0) return preset.name;
  const detected = detectPreset(columns).name;
  const suggestion =
    detected === 'generic' ? 'no preset fits: try --preset generic or --mapping' : `preset ${detected} fits`;
  throw new CatalogConfigError(
    `--preset ${name}: the source has no column ${missing.map((m) => `"${m}"`).join(', ')} (${suggestion})`,
  );
}
