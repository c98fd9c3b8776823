import type { SourceRecord } from '../../interfaces.js';
import type { LocalizedHeader } from './types.js';
import { WOO_COLUMNS, WOO_LANGUAGE_NAMES, type WooLanguage } from './woocommerce-headers.js';

/**
 * A WooCommerce export whatever the language of its header (issue 17). WooCommerce writes the
 * header in the store's language. Known translations (woocommerce-headers.ts) are read back to the
 * English names the preset reads; a header in another language is recognized by what the exporter
 * never translates: its column order, and the values of `Type` (simple, variable, variation,
 * grouped, external), `Published` (1, 0, -1) and `Visibility in catalog` (visible, catalog,
 * search, hidden).
 */
export function localizeWooHeader(
  columns: readonly string[],
  sample: readonly SourceRecord[],
): LocalizedHeader | undefined {
  return byTranslation(columns) ?? byOrderAndValues(columns, sample);
}

/** Lowercase, NFKC (full-width `？`), no-break spaces as spaces, runs of spaces as one. */
function normal(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

interface Translation {
  english: string;
  language: WooLanguage | 'en';
  /** For `%d`/`%s` names: the translation as a pattern; the English name gets its value back. */
  pattern?: RegExp;
}

const EXACT = new Map<string, Translation>();
const PATTERNS: Translation[] = [];

for (const [english, byLanguage] of Object.entries(WOO_COLUMNS)) {
  const add = (text: string, language: WooLanguage | 'en') => {
    if (!/%[ds]/.test(text)) {
      if (!EXACT.has(normal(text))) EXACT.set(normal(text), { english, language });
      return;
    }
    const source = normal(text)
      .split(/(%[ds])/)
      .map((part) => (part === '%d' ? '(\\d+)' : part === '%s' ? '(.+)' : escapeRegExp(part)))
      .join('');
    PATTERNS.push({ english, language, pattern: new RegExp(`^${source}$`) });
  };
  add(english, 'en');
  for (const [language, texts] of Object.entries(byLanguage) as [WooLanguage, readonly string[]][])
    for (const text of texts) add(text, language);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function translate(column: string): Translation & { name: string } {
  const exact = EXACT.get(normal(column));
  if (exact) return { ...exact, name: exact.english };
  for (const translation of PATTERNS) {
    const match = translation.pattern?.exec(normal(column));
    if (match) return { ...translation, name: translation.english.replace(/%[ds]/, match[1] ?? '') };
  }
  return { english: column, language: 'en', name: column };
}

const REQUIRED = ['Type', 'Name', 'Regular price'];

function byTranslation(columns: readonly string[]): LocalizedHeader | undefined {
  const translated = columns.map(translate);
  const hits = new Map<WooLanguage, number>();
  for (const t of translated) if (t.language !== 'en') hits.set(t.language, (hits.get(t.language) ?? 0) + 1);
  if (hits.size === 0) return undefined;
  const names = translated.map((t) => t.name);
  if (!REQUIRED.every((name) => names.includes(name))) return undefined;
  const [language] = [...hits].sort((a, b) => b[1] - a[1])[0] ?? [];
  if (language === undefined) return undefined;
  return { columns: names, says: `WooCommerce's ${WOO_LANGUAGE_NAMES[language]} column names` };
}

const TYPES = new Set(['simple', 'variable', 'variation', 'grouped', 'external', 'downloadable', 'virtual']);
const MAIN_TYPES = ['simple', 'variable', 'variation', 'grouped', 'external'];
const PUBLISHED = new Set(['1', '0', '-1', "'-1"]);
const VISIBILITY = new Set(['visible', 'catalog', 'search', 'hidden']);
const TAX_STATUS = new Set(['taxable', 'shipping', 'none', '']);
const BACKORDERS = new Set(['0', '1', 'notify']);

/** The exporter's fixed columns from Published on; `null` where one is optional (see below). */
const AFTER_PUBLISHED = [
  'Published',
  'Is featured?',
  'Visibility in catalog',
  'Short description',
  'Description',
  'Date sale price starts',
  'Date sale price ends',
  'Tax status',
  'Tax class',
  'In stock?',
  'Stock',
  'Low stock amount',
  'Backorders allowed?',
  'Sold individually?',
  'Weight',
  'Length',
  'Width',
  'Height',
  'Allow customer reviews?',
  'Purchase note',
  'Sale price',
  'Regular price',
  'Categories',
  'Tags',
  'Shipping class',
  'Images',
  'Download limit',
  'Download expiry days',
  'Parent',
  'Grouped products',
  'Upsells',
  'Cross-sells',
  'External URL',
  'Button text',
  'Position',
];

/**
 * The exporter's order: ID, Type, SKU, [GTIN] (9.2+), Name, Published … Stock, [Low stock amount]
 * (3.5+), Backorders allowed? … Position, then the attribute columns (`Attribute N name`, `value(s)`,
 * `visible`, `global`, …), metas and downloads. Where each optional column is is told by the values:
 * Published is 1, 0 or -1; Backorders allowed? is 0, 1 or notify, never blank.
 */
function byOrderAndValues(
  columns: readonly string[],
  sample: readonly SourceRecord[],
): LocalizedHeader | undefined {
  if (sample.length === 0 || columns.length < 30) return undefined;
  const cells = (index: number) => sample.map((record) => (record.values[columns[index] ?? ''] ?? '').trim());
  const all = (index: number, ok: (value: string) => boolean) =>
    index < columns.length && cells(index).every(ok);
  const isType = (value: string) => {
    const parts = value
      .toLowerCase()
      .split(',')
      .map((part) => part.trim());
    return parts.every((part) => TYPES.has(part)) && parts.some((part) => MAIN_TYPES.includes(part));
  };
  if (!all(0, (value) => /^\d*$/.test(value)) || !all(1, isType)) return undefined;
  const published = [4, 5].find((index) => all(index, (value) => PUBLISHED.has(value)));
  if (published === undefined) return undefined;
  if (!all(published + 2, (value) => VISIBILITY.has(value.toLowerCase()))) return undefined;
  if (!all(published + 7, (value) => TAX_STATUS.has(value.toLowerCase()))) return undefined;
  const lowStock = all(published + 11, (value) => BACKORDERS.has(value)) ? 0 : 1;
  if (!all(published + 11 + lowStock, (value) => BACKORDERS.has(value))) return undefined;

  const names = [...columns];
  const fixed = [
    'ID',
    'Type',
    'SKU',
    ...(published === 5 ? ['GTIN, UPC, EAN, or ISBN'] : []),
    'Name',
    ...AFTER_PUBLISHED.filter((name) => lowStock === 1 || name !== 'Low stock amount'),
  ];
  if (fixed.length > columns.length) return undefined;
  fixed.forEach((name, index) => {
    names[index] = name;
  });
  nameAttributes(columns, names, fixed.length);
  return {
    columns: names,
    says: "WooCommerce's column order and untranslated Type values (header language not known)",
  };
}

/** After the fixed columns: a run of four or more columns sharing a number N is attribute N. */
function nameAttributes(columns: readonly string[], names: string[], from: number): void {
  let start = from;
  while (start < columns.length) {
    const number = numberIn(columns[start] ?? '');
    let end = start + 1;
    while (number !== undefined && end < columns.length && numberIn(columns[end] ?? '') === number) end++;
    if (number !== undefined && end - start >= 4) {
      names[start] = `Attribute ${number} name`;
      names[start + 1] = `Attribute ${number} value(s)`;
    }
    start = end;
  }
}

function numberIn(column: string): string | undefined {
  return /(?:^|\D)(\d+)(?:\D|$)/.exec(column)?.[1];
}
