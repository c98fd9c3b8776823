import { type DecimalStyle, type ParsedDecimal, parseDecimal } from './decimal.js';

type Separator = 'dot' | 'comma';

/** What a source's decimal style is decided from, strongest first (docs/sources.md, decimals). */
export interface DecimalChoice {
  /**
   * A style the user fixed (`decimal:` in a mapping file) or a preset whose platform reads any lone
   * separator as the point (`either`, PrestaShop): used as is, whatever the file shows. `by` says
   * where it comes from, for the summary.
   */
  fixed?: { style: Exclude<DecimalStyle, 'auto'>; by?: string };
  /**
   * The preset's default (`dot`: what Shopify's, Magento's … own export writes). Only a default: a
   * spreadsheet re-saving that export in a comma-decimal locale writes `453,592` for 453.592 g, and
   * the file's own values then win over it.
   */
  preset?: { style: Separator; name: string };
  /** The CSV is `;`-delimited, as a spreadsheet in a comma-decimal locale writes it. */
  semicolon?: boolean;
  /**
   * The values are a store's API answers: it writes its numbers one way, so the summary has no
   * style to tell (it said `the file shows 40.00` of a source that has no file); only one that
   * shows both, which the API should never give, is said.
   */
  storeApi?: boolean;
}

/** The style a source's ambiguous values (`1,299`) are read with now, and why: the summary's line. */
export interface DecimalDecision {
  /** Undefined: not known, so a value that reads two ways is refused (never guessed). */
  style: Exclude<DecimalStyle, 'auto'> | undefined;
  /** The summary's `decimals …` line; undefined where nothing is known and nothing was said before. */
  line: string | undefined;
}

export interface DecimalReader {
  /** One value; `forced` is a field's own transform (`decimal-comma`), which nothing overrides. */
  read(text: string, forced?: Separator): ParsedDecimal;
  decision(): DecimalDecision;
}

/**
 * Reads the decimals of one source, resolving values that read two ways (`1,299`, `453.592`): a
 * factor of 1000 when wrong. A fixed style is used as is. Otherwise, for each such value, the first
 * that applies:
 * 1. the style the file's values show unambiguously (`226,796185`, `12,5`, `0,99`, `1,299.00`,
 *    `12.50`); a file that shows both knows none;
 * 2. a `;`-delimited file that writes a comma-looking number (`453,592`) is comma-decimal;
 * 3. the preset's default (`dot` for a platform whose export writes dots; a `;` Shopware export's
 *    `1.250` is 1.25);
 * 4. a `;`-delimited file is otherwise read with comma decimals (`1.250` is 1250);
 * 5. else the value comes back `ambiguous`, and validation makes its row invalid.
 * What the mapper reads first (the sample, decimal-sample.ts) decides for every row; a value that
 * shows a style later decides for the rows after it.
 */
export function createDecimalReader(choice: DecimalChoice = {}): DecimalReader {
  const shown: { dot?: string; comma?: string } = {};
  let commaLooking: string | undefined;

  const resolved = (): { style: Separator | undefined; why: string } => {
    if (shown.dot !== undefined && shown.comma !== undefined) return { style: undefined, why: 'conflict' };
    if (shown.comma !== undefined) return { style: 'comma', why: 'shown' };
    if (shown.dot !== undefined) return { style: 'dot', why: 'shown' };
    if (choice.semicolon && commaLooking !== undefined) return { style: 'comma', why: 'semicolon-comma' };
    if (choice.preset) return { style: choice.preset.style, why: 'preset' };
    if (choice.semicolon) return { style: 'comma', why: 'semicolon' };
    return { style: undefined, why: 'unknown' };
  };

  const read = (text: string, forced?: Separator): ParsedDecimal => {
    if (forced) return parseDecimal(text, forced);
    if (choice.fixed) return parseDecimal(text, choice.fixed.style);
    const parsed = parseDecimal(text, 'auto');
    if (!parsed.ok) return parsed;
    if (!parsed.ambiguous) {
      if (parsed.separator) shown[parsed.separator] ??= text.trim();
      return parsed;
    }
    if (choice.semicolon && commaLooking === undefined && text.includes(',')) commaLooking = text.trim();
    const { style } = resolved();
    return style ? parseDecimal(text, style) : parsed;
  };

  const decision = (): DecimalDecision => {
    if (choice.fixed) return { style: choice.fixed.style, line: fixedLine(choice.fixed) };
    const { style, why } = resolved();
    const over =
      choice.preset && style !== choice.preset.style
        ? `, over the ${choice.preset.name} preset's ${choice.preset.style}`
        : '';
    const source = choice.storeApi ? "the store's API" : 'the file';
    if (choice.storeApi && why !== 'conflict') return { style, line: undefined };
    switch (why) {
      case 'conflict':
        return {
          style,
          line: `decimals: ${source} shows both a dot (${shown.dot}) and a comma (${shown.comma}): a value that reads two ways (1,299) is refused`,
        };
      case 'shown':
        return { style, line: `decimals with a ${style} (the file shows ${shown[style!]}${over})` };
      case 'semicolon-comma':
        return {
          style,
          line: `decimals with a comma (the file is ;-delimited and writes ${commaLooking}${over})`,
        };
      case 'preset':
        return {
          style,
          line: `decimals with a ${style} (the ${choice.preset?.name} preset's: no value of the first rows shows otherwise)`,
        };
      case 'semicolon':
        return { style, line: 'decimals: a comma unless the file shows otherwise (the file is ;-delimited)' };
      default:
        return { style, line: undefined };
    }
  };

  return { read, decision };
}

function fixedLine(fixed: NonNullable<DecimalChoice['fixed']>): string {
  const by = fixed.by ? ` (${fixed.by})` : '';
  if (fixed.style === 'either') return `decimals with a dot or a comma, never a thousands separator${by}`;
  return `decimals with a ${fixed.style}${by}`;
}

/**
 * The choice for a source: a style asked for (MapperOptions.decimalStyle, else the mapping file's
 * `decimal:`) is fixed; so is a preset's `either`; a preset's `dot` or `comma` is its default only.
 * `auto` asked for leaves the preset's default in place: the file teaches the style.
 */
export function decimalChoice(
  options: {
    decimalStyle?: DecimalStyle;
    mapping?: { decimal?: DecimalStyle; origin: string };
    delimiter?: string;
    fromStoreApi?: boolean;
  },
  presetStyle: DecimalStyle,
  presetName: string,
): DecimalChoice {
  const choice: DecimalChoice = {};
  const { decimalStyle, mapping } = options;
  if (decimalStyle !== undefined && decimalStyle !== 'auto')
    choice.fixed = { style: decimalStyle, by: 'as asked' };
  else if (mapping?.decimal !== undefined && mapping.decimal !== 'auto')
    choice.fixed = { style: mapping.decimal, by: `decimal: ${mapping.decimal} in ${mapping.origin}` };
  else if (presetStyle === 'either') choice.fixed = { style: 'either' };
  else if (presetStyle !== 'auto') choice.preset = { style: presetStyle, name: presetName };
  if (options.delimiter === ';') choice.semicolon = true;
  if (options.fromStoreApi) choice.storeApi = true;
  return choice;
}
